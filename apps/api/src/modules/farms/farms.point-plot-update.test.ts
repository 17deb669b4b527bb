// Point plots beyond the capture: PUT /farms/{id}/ and the farmers bulk upload take point and declared area with the
// capture's rules (a point needs its declared area, at most 40,000 m²; any declared area above 0), store them, and make
// a point without a polygon the declared area around it (measured by PostGIS). Another tenant can neither change a farm
// this way nor see one uploaded.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { freshSpot, multipart, square, tenantGeo, type TenantGeo } from '../../test/geo-fixtures.js';
import { testEnv, type Caller, type TestEnv } from '../../test/harness.js';
import { sha256 } from '../../lib/crypto.js';

let env: TestEnv;
let geoA: TenantGeo;
let sdkKeyB: string;

beforeAll(async () => {
  env = await testEnv();
  geoA = await tenantGeo(env, env.fx.tenantA);
  // A capturer of tenant B (an SDK key the test knows; keys are stored hashed), beside its current license.
  sdkKeyB = `SDK-point-put-${Date.now()}-b`;
  await env.sql(sql`INSERT INTO licenses (tenant_id, type, issued_date, expiry_date, key_hash, key_hint, is_revoked)
                    VALUES (${env.fx.tenantB}, 'SDK', '2021-01-01', '2099-01-01', ${sha256(sdkKeyB)}, ${sdkKeyB.slice(0, 10)}, false)`);
});

const capture = (body: Record<string, unknown>) => env.as('agentA').post('/api/farms/', { farmer_id: geoA.farmerId, ...body });
/** What the database holds for a farm: PostGIS's measure of its polygon, its area, point and declared area. */
const stored = async (id: string) =>
  (
    await env.sql<{
      measured: number;
      area_sqm: number;
      lng: number | null;
      lat: number | null;
      declared: number | null;
      history: number;
      updated: string;
    }>(sql`
      SELECT ST_Area(geom::geography) AS measured, area_sqm, ST_X(point) AS lng, ST_Y(point) AS lat, declared_area_sqm AS declared,
             (SELECT count(*)::int FROM farm_boundary_history h WHERE h.farm_id = f.id) AS history, updated_at::text AS updated
        FROM farms f WHERE id = ${id}`)
  )[0]!;
const near = (a: number, b: number) => Math.abs(a - b) / b < 0.005;

describe('PUT /farms/{id}/ with point and declared_area_sqm', () => {
  it('a new point and declared area without coordinates: the boundary becomes that area around the point (history kept)', async () => {
    const f = (await capture({ coordinates: square(...freshSpot(), 60) })).body.data;
    const p = freshSpot();
    const res = await env.as('agentA').put(`/api/farms/${f.id}/`, { point: p, declared_area_sqm: 25_000 });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ point: p, declared_area_sqm: 25_000, area: 25_000 });
    const s = await stored(f.id);
    expect(near(s.measured, 25_000)).toBe(true);
    expect([s.lng, s.lat, s.declared, s.area_sqm, s.history]).toEqual([p[0], p[1], 25_000, 25_000, 1]);
    // The farm's polygon is around the point: PostGIS finds the point inside it.
    const [inside] = await env.sql<{ ok: boolean }>(sql`SELECT ST_Contains(geom, point) AS ok FROM farms WHERE id = ${f.id}`);
    expect(inside!.ok).toBe(true);
  });

  it('the declared area alone on a point plot redraws it around its stored point; on a polygon it is only stored', async () => {
    const p = freshSpot();
    const plot = (await capture({ point: p, declared_area_sqm: 10_000 })).body.data;
    const res = await env.as('agentA').put(`/api/farms/${plot.id}/`, { declared_area_sqm: 30_000 });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ point: p, declared_area_sqm: 30_000, area: 30_000 });
    expect(near((await stored(plot.id)).measured, 30_000)).toBe(true);

    const ring = square(...freshSpot(), 300);
    const polygon = (await capture({ coordinates: ring })).body.data;
    const before = await stored(polygon.id);
    const big = await env.as('agentA').put(`/api/farms/${polygon.id}/`, { declared_area_sqm: 95_000 });
    expect(big.status).toBe(200);
    expect(big.body.data).toMatchObject({ point: null, declared_area_sqm: 95_000 });
    const after = await stored(polygon.id);
    expect([after.measured, after.area_sqm, after.history]).toEqual([before.measured, before.area_sqm, 0]);
  });

  it('coordinates with a point keep the polygon (measured) and store the point', async () => {
    const p = freshSpot();
    const f = (await capture({ coordinates: square(...freshSpot(), 60) })).body.data;
    const res = await env.as('agentA').put(`/api/farms/${f.id}/`, { coordinates: square(...p, 100), point: p, declared_area_sqm: 10_000 });
    expect(res.status).toBe(200);
    const s = await stored(f.id);
    expect(res.body.data).toMatchObject({ point: p, declared_area_sqm: 10_000 });
    expect(Math.abs(s.area_sqm - s.measured)).toBeLessThan(0.01);
  });

  it.each([
    ['over 4 ha with a point', (p: number[]) => ({ point: p, declared_area_sqm: 40_001 }), 'declared_area_sqm', /at most 40000 m² \(4 ha\)/],
    ['a point without its declared area', (p: number[]) => ({ point: p }), 'declared_area_sqm', /required with a point/],
    ['a declared area of 0', () => ({ declared_area_sqm: 0 }), 'declared_area_sqm', /above 0/],
    ['a declared area that is not a number', () => ({ declared_area_sqm: 'two hectares' }), 'declared_area_sqm', /number of square metres/],
    ['a point out of range', () => ({ point: [7.6, 120.2], declared_area_sqm: 1000 }), 'point', /within ±180 and ±90/],
    ['over 4 ha alone on a point plot', () => ({ declared_area_sqm: 50_000 }), 'declared_area_sqm', /at most 40000 m² \(4 ha\)/],
  ])('refuses %s with a 400 naming the field and changes nothing', async (_name, body, field, message) => {
    const p = freshSpot();
    const f = (await capture({ point: p, declared_area_sqm: 8_000, name: 'Unchanged' })).body.data;
    const before = await stored(f.id);
    const res = await env.as('agentA').put(`/api/farms/${f.id}/`, { name: 'Changed', ...body(p) });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toEqual([field]);
    expect(res.body.errors[field][0]).toMatch(message);
    expect(await stored(f.id)).toEqual(before);
    const [row] = await env.sql<{ name: string }>(sql`SELECT name FROM farms WHERE id = ${f.id}`);
    expect(row!.name).toBe('Unchanged');
  });

  it('multipart: the point as JSON text and the declared area as text', async () => {
    const f = (await capture({ coordinates: square(...freshSpot(), 60) })).body.data;
    const p = freshSpot();
    const mp = multipart({ point: JSON.stringify(p), declared_area_sqm: '4500.5' });
    const res = await env.as('agentA').request({ method: 'PUT', url: `/api/farms/${f.id}/`, payload: mp.payload, headers: mp.headers });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ point: p, declared_area_sqm: 4500.5, area: 4500.5 });
  });

  it('another tenant cannot change a farm this way (404 to its SDK key, 403 to its admin), and the farm is as it was', async () => {
    const p = freshSpot();
    const f = (await capture({ point: p, declared_area_sqm: 9_000 })).body.data;
    const before = await stored(f.id);
    const body = { point: freshSpot(), declared_area_sqm: 20_000 };
    expect((await env.as('anonymous').put(`/api/farms/${f.id}/`, body, { 'x-license-key': sdkKeyB })).status).toBe(404);
    expect((await env.as('adminB').put(`/api/farms/${f.id}/`, body)).status).toBe(403);
    expect(await stored(f.id)).toEqual(before);
  });
});

describe('farmers bulk upload with farm_point and farm_declared_area_sqm', () => {
  const url = '/api/farmers/bulk-upload/';
  const upload = (caller: Caller, content: string) => {
    const mp = multipart({}, [{ field: 'file', filename: 'farmers.csv', content: Buffer.from(content), type: 'text/csv' }]);
    return caller.request({ method: 'POST', url, payload: mp.payload, headers: mp.headers });
  };
  const csvCell = (v: unknown) => `"${JSON.stringify(v).replace(/"/g, '""')}"`;
  const header = 'first_name,last_name,farm_name,farm_coordinates,farm_point,farm_declared_area_sqm';
  const farmsNamed = (tenantId: string, tag: string) =>
    env.sql<{ name: string; measured: number; area_sqm: number; lng: number | null; lat: number | null; declared: number | null }>(sql`
      SELECT name, ST_Area(geom::geography) AS measured, area_sqm, ST_X(point) AS lng, ST_Y(point) AS lat, declared_area_sqm AS declared
        FROM farms WHERE tenant_id = ${tenantId} AND name LIKE ${`${tag}%`} ORDER BY name`);

  it('a point plot row, a polygon with a declared area, and bad rows with every error named; bad rows create nothing', async () => {
    const tag = `PP${Date.now()}`;
    const p = freshSpot();
    const q = freshSpot();
    const rows = [
      `Ada,Point,${tag} 1 point,,${csvCell(p)},20000`,
      `Bo,Polygon,${tag} 2 polygon,${csvCell(square(...q, 120))},${csvCell(q)},14000`,
      `Cy,Large,${tag} 3 large,${csvCell(square(...freshSpot(), 400))},,150000`,
      `Di,TooBig,${tag} 4 bad,,${csvCell(freshSpot())},50000`,
      `Ed,NoArea,${tag} 5 bad,,${csvCell(freshSpot())},`,
      `Fe,BadPoint,${tag} 6 bad,,"[200,7]",1000`,
      `Gi,Zero,${tag} 7 bad,${csvCell(square(...freshSpot(), 50))},,0`,
    ];
    const res = await upload(env.as('adminA'), `${header}\n${rows.join('\n')}\n`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ total_rows: 7, created_count: 3, failed_count: 4 });
    const errors = Object.fromEntries(res.body.data.failed_rows.map((r: { row: number; errors: Record<string, string[]> }) => [r.row, r.errors]));
    expect(Object.keys(errors[4])).toEqual(['farm_declared_area_sqm']);
    expect(errors[4].farm_declared_area_sqm[0]).toMatch(/at most 40000 m² \(4 ha\)/);
    expect(errors[5]).toEqual({ farm_declared_area_sqm: [expect.stringMatching(/required with a point/)] });
    expect(Object.keys(errors[6])).toEqual(['farm_point']);
    expect(errors[7]).toEqual({ farm_declared_area_sqm: [expect.stringMatching(/above 0/)] });

    const farms = await farmsNamed(env.fx.tenantA, tag);
    expect(farms.map((f) => f.name)).toEqual([`${tag} 1 point`, `${tag} 2 polygon`, `${tag} 3 large`]);
    const [point, polygon, large] = farms;
    expect([point!.lng, point!.lat, point!.declared, point!.area_sqm]).toEqual([p[0], p[1], 20_000, 20_000]);
    expect(near(point!.measured, 20_000)).toBe(true);
    expect([polygon!.lng, polygon!.lat, polygon!.declared]).toEqual([q[0], q[1], 14_000]);
    expect(Math.abs(polygon!.area_sqm - polygon!.measured)).toBeLessThan(0.01);
    expect([large!.lng, large!.declared]).toEqual([null, 150_000]);
  });

  it('tenant B uploading a point plot gets it in tenant B only: tenant A cannot read it', async () => {
    const tag = `PB${Date.now()}`;
    const res = await upload(env.as('adminB'), `${header}\nHa,Other,${tag} plot,,${csvCell(freshSpot())},12000\n`);
    expect(res.body.data).toMatchObject({ created_count: 1, failed_count: 0 });
    expect(await farmsNamed(env.fx.tenantA, tag)).toEqual([]);
    const [farm] = await env.sql<{ id: string }>(sql`SELECT id FROM farms WHERE tenant_id = ${env.fx.tenantB} AND name = ${`${tag} plot`}`);
    expect((await env.as('adminB').get(`/api/farms/${farm!.id}/`)).body.data).toMatchObject({ declared_area_sqm: 12_000, area: 12_000 });
    expect((await env.as('adminA').get(`/api/farms/${farm!.id}/`)).status).toBe(404);
    expect((await env.as('agentA').put(`/api/farms/${farm!.id}/`, { declared_area_sqm: 5_000 })).status).toBe(404);
  });
});
