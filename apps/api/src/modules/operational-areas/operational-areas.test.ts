// Operational areas through the API: validation with named fields (errors.city for a city outside the tenant's country),
// farm assignment by containment kept correct on create, edit and delete, listing and cross-tenant isolation.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { freshSpot, offset, square, tenantGeo, type TenantGeo } from '../../test/geo-fixtures.js';
import { testEnv, type TestEnv } from '../../test/harness.js';

let env: TestEnv;
let geoA: TenantGeo;
let geoB: TenantGeo;
let foreignCity: string;

beforeAll(async () => {
  env = await testEnv();
  geoA = await tenantGeo(env, env.fx.tenantA);
  geoB = await tenantGeo(env, env.fx.tenantB);
  const [c] = await env.sql<{ id: string }>(sql`SELECT ci.id FROM cities ci JOIN countries co ON co.id = ci.country_id WHERE co.iso2 = 'GH' LIMIT 1`);
  foreignCity = c!.id;
});

const body = (coordinates: unknown, extra: Record<string, unknown> = {}) => ({
  name: 'Test area',
  region_id: geoA.regionId,
  city_id: geoA.cityId,
  coordinates,
  ...extra,
});
const capture = async (ring: unknown) => (await env.as('agentA').post('/api/farms/', { farmer_id: geoA.farmerId, coordinates: ring })).body.data;
const farm = async (id: string) => (await env.as('adminA').get(`/api/farms/${id}/`)).body.data;

describe('operational areas', () => {
  it('creates an area, closes its ring, and assigns the farms it covers (not those partly inside)', async () => {
    const p = freshSpot();
    const inside = await capture(square(...offset(...p, 100, 100), 50));
    const partly = await capture(square(...offset(...p, 480, 100), 50));
    expect(inside.operational_area_id).toBeNull();
    const res = await env.as('adminA').post('/api/operational-areas/', body(square(...p, 500), { name: 'North block' }));
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Operational Area created successfully');
    const area = res.body.data;
    expect(area).toMatchObject({ name: 'North block', region_id: geoA.regionId, city_id: geoA.cityId, country: 'Nigeria', farm_count: 1 });
    expect(area.coordinates).toHaveLength(5);
    expect(Math.abs(area.area_sqm - 250_000) / 250_000).toBeLessThan(0.01);
    expect((await farm(inside.id)).operational_area_name).toBe('North block');
    expect((await farm(partly.id)).operational_area_id).toBeNull();

    // A farm captured later inside the area gets it at once.
    const later = await capture(square(...offset(...p, 200, 200), 40));
    expect(later.operational_area_id).toBe(area.id);

    // Editing the boundary moves assignments with it.
    const edit = await env.as('adminA').put(`/api/operational-areas/${area.id}/`, body(square(...offset(...p, 150, 0), 500), { name: 'North block 2' }));
    expect(edit.status).toBe(200);
    expect(edit.body.message).toBe('Operational area edited successfully');
    expect((await farm(inside.id)).operational_area_id).toBeNull();
    expect((await farm(partly.id)).operational_area_id).toBe(area.id);
    expect((await farm(later.id)).operational_area_id).toBe(area.id);

    // Deleting it releases its farms (no other area covers them).
    expect((await env.as('adminA').delete(`/api/operational-areas/${area.id}/`)).status).toBe(200);
    expect((await farm(partly.id)).operational_area_id).toBeNull();
    expect((await env.as('adminA').get(`/api/operational-areas/${area.id}/`)).status).toBe(404);
  });

  it('when an area is deleted, its farms move to another covering area', async () => {
    const p = freshSpot();
    const f = await capture(square(...offset(...p, 100, 100), 50));
    const first = (await env.as('adminA').post('/api/operational-areas/', body(square(...p, 400), { name: 'First' }))).body.data;
    const second = (await env.as('adminA').post('/api/operational-areas/', body(square(...p, 600), { name: 'Second' }))).body.data;
    expect((await farm(f.id)).operational_area_id).toBe(first.id);
    await env.as('adminA').delete(`/api/operational-areas/${first.id}/`);
    expect((await farm(f.id)).operational_area_id).toBe(second.id);
  });

  it.each([
    ['a one-letter name', { name: 'A' }, 'name', 'Name should have at least 2 letters'],
    ['no name', { name: '' }, 'name', 'Name is required'],
    ['no region', { region_id: '' }, 'region_id', 'Please select a region'],
    ['no city', { city_id: '' }, 'city_id', 'Please select a city'],
  ])('refuses %s, naming the field', async (_n, extra, field, message) => {
    const res = await env.as('adminA').post('/api/operational-areas/', body(square(...freshSpot(), 100), extra));
    expect(res.status).toBe(400);
    expect(res.body.errors[field]).toContain(message);
  });

  it('refuses a city outside the tenant country with an error on city', async () => {
    const res = await env.as('adminA').post('/api/operational-areas/', body(square(...freshSpot(), 100), { city_id: foreignCity }));
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)[0]).toBe('city');
    expect(res.body.errors['city'][0]).toMatch(/not in Nigeria/);
  });

  it("refuses another tenant's region", async () => {
    const res = await env.as('adminA').post('/api/operational-areas/', body(square(...freshSpot(), 100), { region_id: geoB.regionId }));
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)[0]).toBe('region_id');
  });

  it.each([
    [
      'a bow-tie',
      (p: [number, number]) => {
        const [a, b, c, d] = square(...p, 100);
        return [a, c, b, d];
      },
      /Self-intersection/,
    ],
    ['two points', (p: [number, number]) => square(...p, 100).slice(0, 2), /at least 3 distinct/],
    [
      'swapped coordinates',
      () => [
        [7.6, 100],
        [7.7, 100],
        [7.7, 100.1],
      ],
      /swapped/,
    ],
  ])('refuses %s on coordinates and stores nothing', async (_n, build, message) => {
    const [before] = await env.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM operational_areas WHERE tenant_id = ${env.fx.tenantA}`);
    const res = await env.as('adminA').post('/api/operational-areas/', body(build(freshSpot())));
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)[0]).toBe('coordinates');
    expect(res.body.errors['coordinates'][0]).toMatch(message);
    const [after] = await env.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM operational_areas WHERE tenant_id = ${env.fx.tenantA}`);
    expect(after!.n).toBe(before!.n);
  });

  it('lists with search, region filter, page_size default 10 and farm counts', async () => {
    const name = `Searchable ${Date.now()}`;
    await env.as('adminA').post('/api/operational-areas/', body(square(...freshSpot(), 100), { name }));
    const res = await env.as('adminA').get(`/api/operational-areas/?search=${encodeURIComponent(name)}&page=1&region=`);
    expect(res.status).toBe(200);
    expect(res.body.data.count).toBe(1);
    expect(res.body.data.results[0]).toMatchObject({ name, city: expect.any(String), country: 'Nigeria', region: expect.any(String), farm_count: 0 });
    const all = await env.as('adminA').get('/api/operational-areas/');
    expect(all.body.data.results.length).toBeLessThanOrEqual(10);
    const byRegion = await env.as('adminA').get(`/api/operational-areas/?region=${geoA.regionId}&page_size=100`);
    expect(byRegion.body.data.results.every((a: { region_id: string }) => a.region_id === geoA.regionId)).toBe(true);
    const seeded = await env.as('adminA').get(`/api/operational-areas/${geoA.areaId}/`);
    expect(seeded.body.data.farm_count).toBeGreaterThan(0);
  });

  it("keeps tenants apart: B's admin gets 404 and cannot change A's area; lists never mix", async () => {
    const b = env.as('adminB');
    expect((await b.get(`/api/operational-areas/${geoA.areaId}/`)).status).toBe(404);
    expect((await b.put(`/api/operational-areas/${geoA.areaId}/`, { ...body(square(...freshSpot(), 100)), region_id: geoB.regionId })).status).toBe(404);
    expect((await b.delete(`/api/operational-areas/${geoA.areaId}/`)).status).toBe(404);
    const list = await b.get('/api/operational-areas/?page_size=100');
    expect(list.body.data.results.every((a: { tenant_id: string }) => a.tenant_id === env.fx.tenantB)).toBe(true);
    expect((await env.as('adminA').get(`/api/operational-areas/${geoA.areaId}/`)).status).toBe(200);
    const sup = await env.as('super').get(`/api/operational-areas/?tenant_id=${env.fx.tenantB}&page_size=100`);
    expect(sup.body.data.results.every((a: { tenant_id: string }) => a.tenant_id === env.fx.tenantB)).toBe(true);
  });
});
