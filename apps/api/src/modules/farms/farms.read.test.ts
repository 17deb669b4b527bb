// Registry reads through the API: the list (search, region, operational area, paging), the GeoJSON map layer with bbox,
// one farm, the statistics (overview, per country, per state), a farmer's farms, provider-wide reads and tenant isolation.
import { sql } from 'drizzle-orm';
import { farmFeatureCollection } from '@farmland/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { freshSpot, offset, square, tenantGeo, type TenantGeo } from '../../test/geo-fixtures.js';
import { testEnv, type TestEnv } from '../../test/harness.js';

let env: TestEnv;
let geoA: TenantGeo;

beforeAll(async () => {
  env = await testEnv();
  geoA = await tenantGeo(env, env.fx.tenantA);
});

type Farm = { id: string; tenant_id: string; name: string; farmer_id: string; operational_area_id: string | null };

describe('farm list and detail', () => {
  it('pages newest first with page_size default 10 and the documented fields', async () => {
    const res = await env.as('adminA').get('/api/farms/');
    expect(res.status).toBe(200);
    expect(res.body.data.count).toBeGreaterThan(300);
    expect(res.body.data.results).toHaveLength(10);
    expect(res.body.data.next).toMatch(/page=2/);
    const f = res.body.data.results[0];
    for (const k of [
      'id',
      'name',
      'farmer',
      'farmer_id',
      'farmer_folio_id',
      'coordinates',
      'area',
      'hectare',
      'operational_area',
      'operational_area_name',
      'is_overlapping',
      'overlapping_farms',
      'snapshots',
      'mapped_by',
      'updated_at',
      'mapping_record',
    ]) {
      expect(f).toHaveProperty(k);
    }
    const seeded = (await env.as('adminA').get(`/api/farms/${geoA.farmId}/`)).body.data;
    expect(seeded.mapping_record.time_taken_to_map).toMatch(/^\d{2}:\d{2}:\d{2}$/);
    expect(seeded.mapping_record.region).toBe('Nigeria');
    expect(seeded.mapping_record.gps_device_id).toMatch(/^GPS-/);
  });

  it('searches farm name, farmer name and folio id; filters by operational area and region', async () => {
    const seeded = (await env.as('adminA').get(`/api/farms/${geoA.farmId}/`)).body.data;
    const byFolio = await env.as('adminA').get(`/api/farms/?search=${encodeURIComponent(seeded.farmer_folio_id)}&page_size=100`);
    expect(byFolio.body.data.results.every((f: { farmer_folio_id: string }) => f.farmer_folio_id.includes(seeded.farmer_folio_id))).toBe(true);
    // Other files in this worker add farms to the same farmer (the matrix's disposable farms), so the seeded farm may be
    // past the first page: read every page of the search (the count says how many).
    const found: string[] = byFolio.body.data.results.map((f: Farm) => f.id);
    for (let page = 2; (page - 1) * 100 < Math.min(byFolio.body.data.count, 10_000); page++) {
      const next = await env.as('adminA').get(`/api/farms/?search=${encodeURIComponent(seeded.farmer_folio_id)}&page_size=100&page=${page}`);
      expect(next.status).toBe(200);
      found.push(...next.body.data.results.map((f: Farm) => f.id));
    }
    expect(found).toContain(geoA.farmId);
    const byName = await env.as('adminA').get(`/api/farms/?search=${encodeURIComponent(seeded.name)}`);
    expect(byName.body.data.results[0].name).toBe(seeded.name);
    const byFarmer = await env.as('adminA').get(`/api/farms/?search=${encodeURIComponent(seeded.farmer)}&page_size=100`);
    expect(byFarmer.body.data.results.every((f: { farmer: string }) => f.farmer === seeded.farmer || f.farmer.includes(seeded.farmer))).toBe(true);
    const byArea = await env.as('adminA').get(`/api/farms/?operational_area=${geoA.areaId}&page_size=100`);
    expect(byArea.body.data.count).toBeGreaterThan(0);
    expect(byArea.body.data.results.every((f: Farm) => f.operational_area_id === geoA.areaId)).toBe(true);
    const [region] = await env.sql<{ name: string }>(sql`SELECT name FROM regions WHERE id = ${geoA.regionId}`);
    const byRegionId = await env.as('adminA').get(`/api/farms/?region=${geoA.regionId}`);
    const byRegionName = await env.as('adminA').get(`/api/farms/?region=${encodeURIComponent(region!.name)}`);
    expect(byRegionId.body.data.count).toBeGreaterThan(0);
    expect(byRegionName.body.data.count).toBe(byRegionId.body.data.count);
    expect((await env.as('adminA').get('/api/farms/?search=zzzz-no-such-farm')).body.data.count).toBe(0);
  });

  it('all=true returns a GeoJSON FeatureCollection, narrowed by a validated bbox', async () => {
    const p = freshSpot();
    const cap = await env.as('agentA').post('/api/farms/', { farmer_id: geoA.farmerId, coordinates: square(...p, 60) });
    expect(cap.status).toBe(201);
    const all = await env.as('adminA').get('/api/farms/?all=true');
    expect(all.status).toBe(200);
    expect(all.body.data.type).toBe('FeatureCollection');
    expect(all.body.data.features.length).toBeGreaterThan(300);
    expect(all.body.data.features[0]).toMatchObject({ type: 'Feature', geometry: { type: 'Polygon' } });
    const [x, y] = offset(...p, 200, 200);
    const box = await env.as('adminA').get(`/api/farms/?all=true&bbox=${p[0] - 0.001},${p[1] - 0.001},${x},${y}`);
    expect(box.body.data.features.map((f: { id: string }) => f.id)).toEqual([cap.body.data.id]);
    // Issue 29: a captured farm has its stored EUDR verdict, which the map can colour by.
    const [stored] = await env.sql<{ verdict: string }>(sql`SELECT verdict FROM farm_verdicts WHERE farm_id = ${cap.body.data.id}`);
    expect(stored?.verdict).toMatch(/^(low|review|high)$/);
    expect(box.body.data.features[0].properties.verdict).toBe(stored!.verdict);
    expect(farmFeatureCollection.safeParse(box.body.data).error).toBeUndefined();
    for (const bad of ['1,2,3', '10,10,5,5', 'a,b,c,d', '0,0,200,10']) {
      const res = await env.as('adminA').get(`/api/farms/?all=true&bbox=${bad}`);
      expect(res.status, bad).toBe(400);
      expect(Object.keys(res.body.errors)[0]).toBe('bbox');
    }
    const b = await env.as('adminB').get('/api/farms/?all=true');
    expect(b.body.data.features.map((f: { id: string }) => f.id)).not.toContain(cap.body.data.id);
  });

  it('all=true on a registry larger than the cap answers the newest farms and says how to read the rest', async () => {
    const cap = env.config.farmsGeoJsonCap;
    env.config.farmsGeoJsonCap = 3; // the app reads its config per request; 20,000 farms would make this test slow
    try {
      const all = await env.as('adminA').get('/api/farms/?all=true');
      expect(all.status).toBe(200);
      expect(all.body.data.features).toHaveLength(3);
      expect(all.body.data.truncated).toBe(true);
      expect(all.body.data.message).toMatch(/More than 3 farms match.*bbox=minLng,minLat,maxLng,maxLat.*\/api\/farms\/tiles\/\{z\}\/\{x\}\/\{y\}\.mvt/);
    } finally {
      env.config.farmsGeoJsonCap = cap;
    }
    const whole = await env.as('adminA').get('/api/farms/?all=true');
    expect(whole.body.data).toMatchObject({ truncated: false, message: null });
  });

  it("a farmer's farms, and one farm of a farmer (404 when it is someone else's)", async () => {
    const list = await env.as('adminA').get(`/api/farmers/${geoA.farmerId}/farms/`);
    expect(list.status).toBe(200);
    expect(list.body.data.results.every((f: Farm) => f.farmer_id === geoA.farmerId)).toBe(true);
    const one = await env.as('agentA').get(`/api/farmers/${geoA.farmerId}/farms/${geoA.farmId}/`);
    expect(one.status).toBe(200);
    const [other] = await env.sql<{ id: string }>(sql`SELECT id FROM farms WHERE tenant_id = ${env.fx.tenantA} AND farmer_id <> ${geoA.farmerId} LIMIT 1`);
    expect((await env.as('adminA').get(`/api/farmers/${geoA.farmerId}/farms/${other!.id}/`)).status).toBe(404);
    expect((await env.as('adminB').get(`/api/farmers/${geoA.farmerId}/farms/`)).status).toBe(404);
    expect((await env.as('adminB').get(`/api/farmers/${geoA.farmerId}/farms/${geoA.farmId}/`)).status).toBe(404);
  });

  it('provider staff read every tenant (or one by tenant_id); tenant users only theirs', async () => {
    const all = await env.as('super').get('/api/farms/?page_size=100');
    const a = await env.as('adminA').get('/api/farms/?page_size=1');
    const b = await env.as('adminB').get('/api/farms/?page_size=1');
    expect(all.body.data.count).toBeGreaterThanOrEqual(a.body.data.count + b.body.data.count);
    const onlyB = await env.as('super').get(`/api/farms/?tenant_id=${env.fx.tenantB}&page_size=100`);
    expect(onlyB.body.data.results.every((f: Farm) => f.tenant_id === env.fx.tenantB)).toBe(true);
    expect((await env.as('adminB').get(`/api/farms/?tenant_id=${env.fx.tenantA}`)).status).toBe(404);
    const bList = await env.as('adminB').get('/api/farms/?page_size=100');
    expect(bList.body.data.results.every((f: Farm) => f.tenant_id === env.fx.tenantB)).toBe(true);
    expect((await env.as('super').get(`/api/farms/${geoA.farmId}/`)).status).toBe(200);
    expect((await env.as('adminB').get(`/api/farms/${geoA.farmId}/`)).status).toBe(404);
    expect((await env.as('adminB').get(`/api/farms/${geoA.farmId}/overlapping/`)).status).toBe(404);
  });

  it("names each farm's tenant for provider staff (the provider Farmlands table), and never for a tenant's users", async () => {
    const names = new Map(
      (await env.sql<{ id: string; name: string }>(sql`SELECT id, name FROM tenants WHERE id IN (${env.fx.tenantA}, ${env.fx.tenantB})`)).map((t) => [
        t.id,
        t.name,
      ]),
    );
    for (const tenant of [env.fx.tenantA, env.fx.tenantB]) {
      const rows = (await env.as('super').get(`/api/farms/?tenant_id=${tenant}&page_size=5`)).body.data.results as Array<Farm & { tenant_name?: string }>;
      expect(rows.length).toBeGreaterThan(0);
      for (const r of rows) expect(r.tenant_name).toBe(names.get(tenant));
    }
    // Every tenant's farms in one list, each with its own tenant's name.
    const all = (await env.as('super').get('/api/farms/?page_size=100')).body.data.results as Array<Farm & { tenant_name?: string }>;
    for (const r of all) {
      const [t] = await env.sql<{ name: string }>(sql`SELECT name FROM tenants WHERE id = ${r.tenant_id}`);
      expect(r.tenant_name).toBe(t!.name);
    }
    expect((await env.as('super').get(`/api/farms/${geoA.farmId}/`)).body.data.tenant_name).toBe(names.get(env.fx.tenantA));
    // A tenant admin's rows and details carry no tenant name at all (its own or another's).
    const own = (await env.as('adminB').get('/api/farms/?page_size=100')).body.data.results as Array<Record<string, unknown>>;
    expect(own.length).toBeGreaterThan(0);
    for (const r of own) {
      expect(r).not.toHaveProperty('tenant_name');
      expect(r['tenant_id']).toBe(env.fx.tenantB);
      expect(JSON.stringify(r)).not.toContain(names.get(env.fx.tenantA)!);
    }
    expect((await env.as('adminA').get(`/api/farms/${geoA.farmId}/`)).body.data).not.toHaveProperty('tenant_name');
  });
});

describe('registry statistics', () => {
  it('overview totals add up and match the farms', async () => {
    const o = (await env.as('adminA').get('/api/farms/overview')).body.data;
    expect(o.total_within_operational_area + o.total_outside_operational_area).toBe(o.total_farms);
    const [db] = await env.sql<{ overlapping: number; flagged: number }>(
      sql`SELECT count(*) FILTER (WHERE is_overlapping)::int AS overlapping, count(*) FILTER (WHERE flag IS NOT NULL)::int AS flagged FROM farms WHERE tenant_id = ${env.fx.tenantA}`,
    );
    expect(o.total_overlapping_farms).toBe(db!.overlapping);
    expect(o.total_unrecognized_farms).toBe(db!.flagged);
    expect(o.total_overlapping_farms).toBeGreaterThan(0);
  });

  it('global: farms and farmers per country with ISO2 codes', async () => {
    const res = await env.as('adminA').get('/api/farms/global');
    expect(res.status).toBe(200);
    const ng = res.body.data.find((c: { code: string }) => c.code === 'NG');
    expect(ng.total_farms).toBeGreaterThan(300);
    expect(ng.total_farmers).toBeGreaterThan(100);
  });

  it('regional: every state of the country with its farms; categorized-by-state: states with farms', async () => {
    const res = await env.as('adminA').get('/api/farms/regional?name=Nigeria');
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(30);
    const oyo = res.body.data.find((s: { code: string }) => s.code === 'OY');
    expect(oyo.total_farms).toBeGreaterThan(300);
    const total = res.body.data.reduce((n: number, s: { total_farms: number }) => n + s.total_farms, 0);
    const cat = await env.as('adminA').get('/api/farms/categorized-by-state');
    expect(cat.body.data.every((s: { total_farms: number }) => s.total_farms > 0)).toBe(true);
    expect(cat.body.data.find((s: { code: string }) => s.code === 'OY').total_farms).toBe(oyo.total_farms);
    expect(total).toBeLessThanOrEqual((await env.as('adminA').get('/api/farms/overview')).body.data.total_farms);
    const unknown = await env.as('adminA').get('/api/farms/regional?name=Atlantis');
    expect(unknown.status).toBe(400);
    expect(Object.keys(unknown.body.errors)[0]).toBe('name');
  });
  it('cuts each page and its count in one statement: a filtered list walked page by page, and a page past its end, is its rows in order with one count', async () => {
    const expected = (
      await env.sql<{ id: string }>(
        sql`SELECT id FROM farms WHERE tenant_id = ${env.fx.tenantA} AND operational_area_id = ${geoA.areaId} ORDER BY created_at DESC, id DESC`,
      )
    ).map((r) => r.id);
    expect(expected.length).toBeGreaterThan(2);
    // A page that is exactly full (the count runs in the page's statement), one short of the end, and small pages.
    for (const size of [Math.min(expected.length, 100), Math.min(expected.length - 1, 100), 3]) {
      const pages = Math.ceil(expected.length / size);
      const seen: string[] = [];
      for (let page = 1; page <= pages + 1; page++) {
        const data = (await env.as('adminA').get(`/api/farms/?operational_area=${geoA.areaId}&page_size=${size}&page=${page}`)).body.data;
        expect(data.count, `page ${page} of size ${size}`).toBe(expected.length);
        expect(data.count_estimated).toBeUndefined();
        expect(data.next === null, `page ${page} of size ${size}`).toBe(page >= pages);
        seen.push(...data.results.map((f: Farm) => f.id));
      }
      expect(seen).toEqual(expected);
    }
    // Tenant A's area is no filter tenant B's admin can reach A's farms with.
    expect((await env.as('adminB').get(`/api/farms/?operational_area=${geoA.areaId}&page_size=1`)).body.data).toMatchObject({ count: 0, results: [] });
    // A farmer's farms: a page with farms is the farmer's; an empty one asks whether the farmer exists.
    const tag = `NoFarms${Date.now()}`;
    const [farmer] = await env.sql<{ id: string }>(
      sql`INSERT INTO farmers (tenant_id, first_name, last_name, folio_id) VALUES (${env.fx.tenantA}, 'No', 'Farms', ${tag}) RETURNING id`,
    );
    try {
      for (const page of [1, 2]) {
        const res = await env.as('adminA').get(`/api/farmers/${farmer!.id}/farms/?page=${page}`);
        expect(res.status).toBe(200);
        expect(res.body.data).toMatchObject({ count: 0, results: [], next: null });
      }
      expect((await env.as('adminB').get(`/api/farmers/${farmer!.id}/farms/`)).status).toBe(404);
    } finally {
      await env.sql(sql`DELETE FROM farmers WHERE id = ${farmer!.id}`);
    }
  });
});
