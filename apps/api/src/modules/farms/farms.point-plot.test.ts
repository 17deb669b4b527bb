// Point plots through the capture API (POST /farms/, agent session or SDK key): the EU regulation allows a plot of 4 ha or
// less to be one point with its declared area. declared_area_sqm is validated (above 0; at most 40,000 m² with a point),
// stored, returned in the farm's representation, and is the farm's area when the point comes without a polygon.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { freshSpot, multipart, square, tenantGeo, type TenantGeo } from '../../test/geo-fixtures.js';
import { testEnv, type TestEnv } from '../../test/harness.js';
import { sha256 } from '../../lib/crypto.js';

let env: TestEnv;
let geoA: TenantGeo;
let geoB: TenantGeo;
let sdkKeyB: string;

beforeAll(async () => {
  env = await testEnv();
  geoA = await tenantGeo(env, env.fx.tenantA);
  geoB = await tenantGeo(env, env.fx.tenantB);
  // A key the test knows (keys are stored hashed): an older SDK license of tenant B, its current license left as it is.
  sdkKeyB = `SDK-point-${Date.now()}-b`;
  await env.sql(sql`INSERT INTO licenses (tenant_id, type, issued_date, expiry_date, key_hash, key_hint, is_revoked)
                    VALUES (${env.fx.tenantB}, 'SDK', '2021-01-01', '2099-01-01', ${sha256(sdkKeyB)}, ${sdkKeyB.slice(0, 10)}, false)`);
});

const capture = (body: Record<string, unknown>) => env.as('agentA').post('/api/farms/', { farmer_id: geoA.farmerId, time_taken_to_map: '00:03:00', ...body });
const farmCount = async () => (await env.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM farms WHERE tenant_id = ${env.fx.tenantA}`))[0]!.n;
/** PostGIS's measure of a stored farm's polygon. */
const measured = async (id: string) => (await env.sql<{ a: number }>(sql`SELECT ST_Area(geom::geography) AS a FROM farms WHERE id = ${id}`))[0]!.a;

describe('point plots (declared area)', () => {
  it('a point without a polygon: stored as the declared area around the point, whose area is the declared one', async () => {
    const p = freshSpot();
    const res = await capture({ point: p, declared_area_sqm: 20_000 });
    expect(res.status).toBe(201);
    const f = res.body.data;
    expect(f.declared_area_sqm).toBe(20_000);
    expect(f.point).toEqual(p);
    expect(f.area).toBe(20_000);
    expect(f.hectare).toBe(2);
    // The stored polygon (a 48-gon around the point) measures the declared area within 0.5 % (PostGIS's geography).
    expect(Math.abs((await measured(f.id)) - 20_000) / 20_000).toBeLessThan(0.005);
    expect(f.coordinates).toHaveLength(49);
    // The detail and the list say the same.
    const detail = (await env.as('adminA').get(`/api/farms/${f.id}/`)).body.data;
    expect(detail).toMatchObject({ declared_area_sqm: 20_000, point: p, area: 20_000 });
    const list = await env.as('adminA').get(`/api/farms/?search=${encodeURIComponent(f.name)}`);
    expect(list.body.data.results.find((x: { id: string }) => x.id === f.id)).toMatchObject({ declared_area_sqm: 20_000, point: p });
  });

  it('a point with the polygon the device drew: the polygon is kept and measured, the point and declared area stored', async () => {
    const p = freshSpot();
    const ring = square(...p, 120);
    const res = await capture({ coordinates: ring, point: p, declared_area_sqm: 14_400 });
    expect(res.status).toBe(201);
    const f = res.body.data;
    expect(f.coordinates).toHaveLength(5);
    expect(Math.abs(f.area - (await measured(f.id)))).toBeLessThan(0.01);
    expect(f).toMatchObject({ declared_area_sqm: 14_400, point: p });
  });

  it('a re-walk (PUT with a boundary) replaces the point plot: the point goes, the declared area stays, the area is measured', async () => {
    const p = freshSpot();
    const f = (await capture({ point: p, declared_area_sqm: 10_000 })).body.data;
    const walked = await env.as('agentA').put(`/api/farms/${f.id}/`, { coordinates: square(...p, 90) });
    expect(walked.status).toBe(200);
    expect(walked.body.data).toMatchObject({ point: null, declared_area_sqm: 10_000 });
    expect(Math.abs(walked.body.data.area - (await measured(f.id)))).toBeLessThan(0.01);
  });

  it('a polygon capture may declare an area (no 4 ha limit without a point); one that does not returns nulls', async () => {
    const big = await capture({ coordinates: square(...freshSpot(), 300), declared_area_sqm: 90_000 });
    expect(big.status).toBe(201);
    expect(big.body.data).toMatchObject({ declared_area_sqm: 90_000, point: null });
    const plain = await capture({ coordinates: square(...freshSpot(), 80) });
    expect(plain.status).toBe(201);
    expect(plain.body.data).toMatchObject({ declared_area_sqm: null, point: null });
  });

  it.each([
    ['over 4 ha with a point', { declared_area_sqm: 40_001 }, 'declared_area_sqm', /at most 40000 m² \(4 ha\)/],
    ['a point without its declared area', {}, 'declared_area_sqm', /required with a point/],
    ['a declared area of 0', { declared_area_sqm: 0 }, 'declared_area_sqm', /above 0/],
    ['a negative declared area', { declared_area_sqm: -5 }, 'declared_area_sqm', /above 0/],
    ['a declared area that is not a number', { declared_area_sqm: 'two hectares' }, 'declared_area_sqm', /number of square metres/],
  ])('refuses %s with a 400 naming the field and stores nothing', async (_name, extra, field, message) => {
    const before = await farmCount();
    const res = await capture({ point: freshSpot(), ...extra });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(Object.keys(res.body.errors)).toEqual([field]);
    expect(res.body.errors[field][0]).toMatch(message);
    expect(await farmCount()).toBe(before);
  });

  it('refuses a point out of range, and a capture with neither coordinates nor a point', async () => {
    const bad = await capture({ point: [7.6, 120.2], declared_area_sqm: 1000 });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)).toEqual(['point']);
    const none = await capture({ declared_area_sqm: 1000 });
    expect(none.status).toBe(400);
    expect(Object.keys(none.body.errors)).toEqual(['coordinates']);
    expect(none.body.errors['coordinates'][0]).toMatch(/Coordinates are required/);
  });

  it('multipart: the point as JSON text and the declared area as text', async () => {
    const p = freshSpot();
    const mp = multipart({ farmer_id: geoA.farmerId, point: JSON.stringify(p), declared_area_sqm: '5000.5' });
    const res = await env.as('agentA').request({ method: 'POST', url: '/api/farms/', payload: mp.payload, headers: mp.headers });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ point: p, declared_area_sqm: 5000.5, area: 5000.5 });
  });

  it('by SDK key (tenant B): captured in tenant B; tenant A cannot read it', async () => {
    const p = freshSpot();
    const res = await env.as('anonymous').post('/api/farms/', { farmer_id: geoB.farmerId, point: p, declared_area_sqm: 30_000 }, { 'x-license-key': sdkKeyB });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ tenant_id: env.fx.tenantB, point: p, declared_area_sqm: 30_000, area: 30_000 });
    expect((await env.as('adminB').get(`/api/farms/${res.body.data.id}/`)).body.data.declared_area_sqm).toBe(30_000);
    expect((await env.as('adminA').get(`/api/farms/${res.body.data.id}/`)).status).toBe(404);
    const over = await env.as('anonymous').post('/api/farms/', { farmer_id: geoB.farmerId, point: p, declared_area_sqm: 50_000 }, { 'x-license-key': sdkKeyB });
    expect(over.status).toBe(400);
    expect(Object.keys(over.body.errors)).toEqual(['declared_area_sqm']);
  });
});
