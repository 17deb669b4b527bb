// Retain (POST /farms/{id}/intersect) as docs/design-rules.md fixes it: the retained farm keeps its boundary, the farms of its group
// that overlap it are cut (history kept, area recomputed), vanishing or below-minimum remainders are flagged, and the
// response lists the group's farms that still overlap.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { freshSpot, offset, square, tenantGeo, type Ring, type TenantGeo } from '../../test/geo-fixtures.js';
import { testEnv, type TestEnv } from '../../test/harness.js';

let env: TestEnv;
let geoA: TenantGeo;

beforeAll(async () => {
  env = await testEnv();
  geoA = await tenantGeo(env, env.fx.tenantA);
});

type F = { id: string; area: number; is_overlapping: boolean; flag: string | null; coordinates: [number, number][]; overlap_group_id: string | null };

async function cap(ring: Ring): Promise<F> {
  const res = await env.as('agentA').post('/api/farms/', { farmer_id: geoA.farmerId, coordinates: ring });
  expect(res.status).toBe(201);
  return res.body.data;
}
const get = async (id: string): Promise<F> => (await env.as('adminA').get(`/api/farms/${id}/`)).body.data;
const retain = (id: string) => env.as('adminA').post(`/api/farms/${id}/intersect`);
const rect = (sw: [number, number], east: number, north: number): Ring => {
  const [a] = square(...sw, 1);
  return [a!, offset(...sw, east, 0), offset(...sw, east, north), offset(...sw, 0, north)];
};

describe('retain', () => {
  it('cuts the retained farm out of the farm it overlaps, keeps history, and resolves the group', async () => {
    const p = freshSpot();
    const a = await cap(square(...p, 100));
    const b = await cap(square(...offset(...p, 50, 50), 100));
    expect((await get(a.id)).is_overlapping).toBe(true);
    const res = await retain(a.id);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Farm coordinates retained successfully');
    expect(res.body.data).toEqual([]);
    const a2 = await get(a.id);
    const b2 = await get(b.id);
    expect(a2.coordinates).toEqual(a.coordinates);
    expect(a2.area).toBe(a.area);
    expect([a2.is_overlapping, b2.is_overlapping]).toEqual([false, false]);
    expect(Math.abs(b2.area - 7_500) / 7_500).toBeLessThan(0.01);
    expect(b2.flag).toBeNull();
    const hist = await env.sql<{ area_sqm: number; reason: string }>(sql`SELECT area_sqm, reason FROM farm_boundary_history WHERE farm_id = ${b.id}`);
    expect(hist).toHaveLength(1);
    expect(hist[0]!.reason).toBe(`retain:${a.id}`);
    expect(hist[0]!.area_sqm).toBeCloseTo(b.area, 0);
    // The cut is clean: PostGIS itself sees no interior overlap left, and the stored geometry is valid.
    const [chk] = await env.sql<{ overlap: boolean; valid: boolean }>(
      sql`SELECT ST_Relate(a.geom, b.geom, '2********') AS overlap, ST_IsValid(b.geom) AS valid FROM farms a, farms b WHERE a.id = ${a.id} AND b.id = ${b.id}`,
    );
    expect(chk).toEqual({ overlap: false, valid: true });
  });

  it('in a chain A–B–C, retaining A cuts B only; B and C still overlap and are returned', async () => {
    const p = freshSpot();
    const a = await cap(square(...p, 100));
    const b = await cap(square(...offset(...p, 80, 0), 100));
    const c = await cap(square(...offset(...p, 160, 0), 100));
    const res = await retain(a.id);
    expect(res.status).toBe(200);
    expect(res.body.data.map((f: F) => f.id).sort()).toEqual([b.id, c.id].sort());
    expect((await get(a.id)).is_overlapping).toBe(false);
    expect((await get(c.id)).area).toBe(c.area);
    expect(Math.abs((await get(b.id)).area - 8_000) / 8_000).toBeLessThan(0.01);
  });

  it('retaining the middle of a chain cuts both neighbours and dissolves the group', async () => {
    const p = freshSpot();
    const a = await cap(square(...p, 100));
    const b = await cap(square(...offset(...p, 80, 0), 100));
    const c = await cap(square(...offset(...p, 160, 0), 100));
    const res = await retain(b.id);
    expect(res.body.data).toEqual([]);
    const after = await Promise.all([a, b, c].map((f) => get(f.id)));
    expect(after.map((f) => f.is_overlapping)).toEqual([false, false, false]);
    expect(after.map((f) => f.overlap_group_id)).toEqual([null, null, null]);
  });

  it('a farm split in two keeps its largest part', async () => {
    const p = freshSpot();
    const long = await cap(rect(p, 300, 100));
    const cross = await cap(rect(offset(...p, 150, -50), 100, 200)); // leaves 150 m west and 50 m east
    const res = await retain(cross.id);
    expect(res.status).toBe(200);
    const l = await get(long.id);
    expect(Math.abs(l.area - 15_000) / 15_000).toBeLessThan(0.01);
    expect(l.is_overlapping).toBe(false);
  });

  it('a farm that would vanish is flagged, keeps its boundary, and leaves the overlap graph', async () => {
    const p = freshSpot();
    const big = await cap(square(...p, 200));
    const inside = await cap(square(...offset(...p, 50, 50), 50));
    const before = (await env.as('adminA').get('/api/farms/overview')).body.data.total_unrecognized_farms;
    const res = await retain(big.id);
    expect(res.status).toBe(200);
    const i = await get(inside.id);
    expect(i.flag).toBe('vanished');
    expect(i.coordinates).toEqual(inside.coordinates);
    expect(i.is_overlapping).toBe(false);
    expect((await get(big.id)).is_overlapping).toBe(false);
    expect((await env.as('adminA').get('/api/farms/overview')).body.data.total_unrecognized_farms).toBe(before + 1);
    const again = await retain(inside.id);
    expect(again.status).toBe(400);
    expect(typeof again.body.errors).toBe('string');
  });

  it('a remainder below the minimum farm size is stored and flagged, not deleted', async () => {
    const p = freshSpot();
    const a = await cap(square(...p, 100));
    const small = await cap(rect(offset(...p, 95, 40), 10, 10)); // 5 m × 10 m stays outside: 50 sqm < 100 sqm
    await retain(a.id);
    const s = await get(small.id);
    expect(s.flag).toBe('below_minimum');
    expect(Math.abs(s.area - 50) / 50).toBeLessThan(0.02);
    expect(s.is_overlapping).toBe(false);
  });

  it('refuses a farm that overlaps nothing, with the error as a string', async () => {
    const a = await cap(square(...freshSpot(), 100));
    const res = await retain(a.id);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('not_overlapping');
    expect(typeof res.body.errors).toBe('string');
    expect(res.body.errors).toMatch(/does not overlap/);
  });

  it("is 404 for an unknown farm and for another tenant's farm", async () => {
    expect((await retain('00000000-0000-4000-8000-000000000000')).status).toBe(404);
    const p = freshSpot();
    const a = await cap(square(...p, 100));
    await cap(square(...offset(...p, 50, 0), 100));
    const res = await env.as('adminB').post(`/api/farms/${a.id}/intersect`);
    expect(res.status).toBe(404);
    expect((await get(a.id)).is_overlapping).toBe(true);
  });
});
