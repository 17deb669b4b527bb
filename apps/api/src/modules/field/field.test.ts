// The field app's download (issue 31): the areas list and one area's bundle: the polygon, the registry farms in the box
// grown by 1 km (checked against PostGIS), the user's farmers, the capture rules; tenants kept apart; bad input named.
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIELD_BUNDLE_FARMS_CAP, FIELD_BUNDLE_MARGIN_M, fieldBundle } from '@farmland/contracts';
import { freshSpot, insertAreaDirect, insertFarmDirect, offset, square, tenantGeo, type TenantGeo } from '../../test/geo-fixtures.js';
import { testEnv, type TestEnv } from '../../test/harness.js';

let env: TestEnv;
let geoA: TenantGeo;
let geoB: TenantGeo;

beforeAll(async () => {
  env = await testEnv();
  geoA = await tenantGeo(env, env.fx.tenantA);
  geoB = await tenantGeo(env, env.fx.tenantB);
});

/** An area of tenant A (1 km square) at a fresh spot, with farms inside, 500 m outside, 3 km outside, and one of tenant B inside. */
async function arrange() {
  const [lng, lat] = freshSpot();
  const areaId = await insertAreaDirect(env, env.fx.tenantA, square(lng, lat, 1000));
  const inside = await insertFarmDirect(env, env.fx.tenantA, geoA.farmerId, square(...offset(lng, lat, 100, 100), 80));
  const near = await insertFarmDirect(env, env.fx.tenantA, geoA.farmerId, square(...offset(lng, lat, 1500, 200), 80));
  const far = await insertFarmDirect(env, env.fx.tenantA, geoA.farmerId, square(...offset(lng, lat, 4000, 200), 80));
  const otherTenant = await insertFarmDirect(env, env.fx.tenantB, geoB.farmerId, square(...offset(lng, lat, 300, 300), 80));
  return { areaId, inside, near, far, otherTenant, lng, lat };
}

describe('GET /api/field/bundle/', () => {
  it("sends the area, the tenant's farms within 1 km of its box (as PostGIS finds them), the rules, and matches the contract", async () => {
    const a = await arrange();
    const res = await env.as('agentA').get(`/api/field/bundle/?area_id=${a.areaId}`);
    expect(res.status, res.raw.slice(0, 300)).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const b = fieldBundle.parse(res.body.data);
    expect(b.area.id).toBe(a.areaId);
    expect(b.area.geometry.type).toBe('Polygon');
    const ids = b.farms.map((f) => f.id);
    expect(ids).toContain(a.inside);
    expect(ids).toContain(a.near);
    expect(ids).not.toContain(a.far);
    expect(ids).not.toContain(a.otherTenant);
    // PostGIS's own answer for the farms near the area: within 1 km of its box (geodesic distance), tenant A only.
    const expected = await env.sql<{ id: string }>(sql`
      SELECT f.id FROM farms f, operational_areas oa
       WHERE oa.id = ${a.areaId} AND f.tenant_id = ${env.fx.tenantA}
         AND ST_DWithin(ST_Envelope(oa.geom)::geography, f.geom::geography, ${FIELD_BUNDLE_MARGIN_M - 5})`);
    for (const e of expected) expect(ids).toContain(e.id);
    const inside = b.farms.find((f) => f.id === a.inside)!;
    const [pg] = await env.sql<{ a: number; name: string }>(
      sql`SELECT f.area_sqm AS a, trim(fr.first_name || ' ' || fr.last_name) AS name FROM farms f JOIN farmers fr ON fr.id = f.farmer_id WHERE f.id = ${a.inside}`,
    );
    expect(inside.area_sqm).toBeCloseTo(pg!.a, 3);
    expect(inside.farmer_name).toBe(pg!.name);
    expect(inside.geometry.type).toBe('Polygon');
    expect(b.truncated).toBe(false);
    expect(b.farms_limit).toBe(FIELD_BUNDLE_FARMS_CAP);
    // The box holds the area and is at least 1 km larger on every side.
    const [box] = await env.sql<{ w: number; e: number; s: number; n: number }>(sql`
      SELECT ST_Distance(ST_MakePoint(${b.area.bbox[0]}, ${a.lat})::geography, ST_MakePoint(ST_XMin(geom), ${a.lat})::geography) AS w,
             ST_Distance(ST_MakePoint(${b.area.bbox[2]}, ${a.lat})::geography, ST_MakePoint(ST_XMax(geom), ${a.lat})::geography) AS e,
             ST_Distance(ST_MakePoint(${a.lng}, ${b.area.bbox[1]})::geography, ST_MakePoint(${a.lng}, ST_YMin(geom))::geography) AS s,
             ST_Distance(ST_MakePoint(${a.lng}, ${b.area.bbox[3]})::geography, ST_MakePoint(${a.lng}, ST_YMax(geom))::geography) AS n
        FROM operational_areas WHERE id = ${a.areaId}`);
    for (const side of Object.values(box!)) {
      expect(side).toBeGreaterThanOrEqual(FIELD_BUNDLE_MARGIN_M - 1);
      expect(side).toBeLessThan(FIELD_BUNDLE_MARGIN_M * 1.1);
    }
    const [config] = await env.sql<{ m: number; oa: number; os: number }>(sql`
      SELECT coalesce((SELECT minimum_farm_size FROM tenant_configurations WHERE tenant_id = ${env.fx.tenantA}), 100) AS m,
             coalesce((SELECT overlap_min_area_sqm FROM tenant_configurations WHERE tenant_id = ${env.fx.tenantA}), 1) AS oa,
             coalesce((SELECT overlap_min_share FROM tenant_configurations WHERE tenant_id = ${env.fx.tenantA}), 0.01) AS os`);
    expect(b.settings).toEqual({ minimum_farm_size: config!.m, overlap_min_area_sqm: config!.oa, overlap_min_share: config!.os });
  });

  it('sends the farmers the agent registered, with the farmer fields', async () => {
    const last = `Fb${crypto.randomUUID().slice(0, 8)}`;
    const made = await env.as('agentA').post('/api/farmers/', { first_name: 'Kemi', last_name: last, gender: 'Female' });
    expect(made.status).toBe(201);
    const byAdmin = await env.as('adminA').post('/api/farmers/', { first_name: 'Admin', last_name: last });
    expect(byAdmin.status).toBe(201);
    const a = await arrange();
    const b = (await env.as('agentA').get(`/api/field/bundle/?area_id=${a.areaId}`)).body.data;
    const mine = b.farmers.filter((f: { last_name: string }) => f.last_name === last);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      id: made.body.data.id,
      first_name: 'Kemi',
      farmer_name: `Kemi ${last}`,
      gender: 'Female',
      folio_id: made.body.data.folio_id,
    });
    const [n] = await env.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM farmers WHERE created_by = ${env.fx.agentA}`);
    expect(b.farmers.length).toBe(Math.min(n!.n, 20_000));
  });

  it("answers 404 for another tenant's area (agent of B, admin of B), and 403 for provider staff", async () => {
    const a = await arrange();
    const agentB = await env.sessionFor(env.fx.agentB);
    const r1 = await agentB.get(`/api/field/bundle/?area_id=${a.areaId}`);
    expect([r1.status, r1.body.code]).toEqual([404, 'not_found']);
    expect(r1.raw).not.toContain(a.inside);
    expect((await env.as('adminB').get(`/api/field/bundle/?area_id=${a.areaId}`)).status).toBe(404);
    expect((await env.as('super').get(`/api/field/bundle/?area_id=${a.areaId}`)).status).toBe(403);
    // B's own area sends B's farms only.
    const [lng, lat] = freshSpot();
    const areaB = await insertAreaDirect(env, env.fx.tenantB, square(lng, lat, 500));
    const farmB = await insertFarmDirect(env, env.fx.tenantB, geoB.farmerId, square(...offset(lng, lat, 50, 50), 60));
    const farmAThere = await insertFarmDirect(env, env.fx.tenantA, geoA.farmerId, square(...offset(lng, lat, 200, 200), 60));
    const own = await agentB.get(`/api/field/bundle/?area_id=${areaB}`);
    expect(own.status).toBe(200);
    const ids = own.body.data.farms.map((f: { id: string }) => f.id);
    expect(ids).toContain(farmB);
    expect(ids).not.toContain(farmAThere);
  });

  it('names area_id when it is missing or not an id', async () => {
    const missing = await env.as('agentA').get('/api/field/bundle/');
    expect(missing.status).toBe(400);
    expect(missing.body.errors.area_id[0]).toBeTruthy();
    const bad = await env.as('agentA').get('/api/field/bundle/?area_id=nope');
    expect(bad.status).toBe(400);
    expect(bad.body.errors.area_id[0]).toMatch(/operational area id/);
    const unknown = await env.as('agentA').get(`/api/field/bundle/?area_id=${crypto.randomUUID()}`);
    expect(unknown.status).toBe(404);
  });
});

describe('GET /api/field/areas/', () => {
  it("lists the tenant's areas with their farm counts, the agent's assigned area first; tenant B sees only its own", async () => {
    const a = await arrange();
    await env.sql(sql`UPDATE farms SET operational_area_id = ${a.areaId} WHERE id = ${a.inside}`);
    const res = await env.as('agentA').get('/api/field/areas/');
    expect(res.status).toBe(200);
    const areas: Array<{ id: string; farm_count: number; assigned: boolean; name: string }> = res.body.data;
    const [counts] = await env.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM operational_areas WHERE tenant_id = ${env.fx.tenantA}`);
    expect(areas).toHaveLength(Math.min(counts!.n, 1000));
    expect(areas.find((x) => x.id === a.areaId)?.farm_count).toBe(1);
    const [assigned] = await env.sql<{ id: string | null }>(sql`SELECT operational_area_id AS id FROM users WHERE id = ${env.fx.agentA}`);
    if (assigned?.id) expect(areas[0]).toMatchObject({ id: assigned.id, assigned: true });
    expect(areas.filter((x) => x.assigned).length).toBeLessThanOrEqual(1);
    const b = await env.as('adminB').get('/api/field/areas/');
    expect(b.status).toBe(200);
    expect(b.body.data.map((x: { id: string }) => x.id)).not.toContain(a.areaId);
    const [countB] = await env.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM operational_areas WHERE tenant_id = ${env.fx.tenantB}`);
    expect(b.body.data).toHaveLength(countB!.n);
  });
});
