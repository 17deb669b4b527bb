// The registry's overlap pairs, measured (issue 28): GET /farms/{id}/overlaps/ lists a farm's overlaps with the other
// farms of its tenant, each with its area (m², geodesic), its share of each farm and intersection over union, and pairs
// under the tenant's tolerance as slivers ("touching or sliver"), exactly the pairs the grouping leaves out. Measures
// are checked against PostGIS's geodesic areas of the same input polygons and against the strips' analytic areas.
// Another tenant can neither read the list nor appear in it.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { arrangeTenant } from '../../test/analysis-fixtures.js';
import { offset, square, tenantGeo, type Ring } from '../../test/geo-fixtures.js';
import { testEnv, type TestEnv } from '../../test/harness.js';

let env: TestEnv;
let t: Awaited<ReturnType<typeof arrangeTenant>>;
const origin: [number, number] = [26.5, -19.7];
const M = 100;
const at = (east: number, north = 0) => offset(origin[0], origin[1], east, north);
const closed = (r: Ring) => [...r, r[0]!];

// Three pairs of 1 ha squares, 1 km apart: a 3 mm strip (0.3 m²: a sliver by area), a 0.5 m strip (50 m², 0.5 %: a
// sliver by share) and a half overlap (5,000 m², 50 %); and a farm that only touches the half pair's first (an edge).
const pairs: Array<{ name: string; a: Ring; b: Ring; strip: number }> = [
  { name: 'tiny', a: square(...at(0), M), b: square(...at(M - 0.003), M), strip: 0.003 },
  { name: 'thin', a: square(...at(1000), M), b: square(...at(1000 + M - 0.5), M), strip: 0.5 },
  { name: 'half', a: square(...at(2000), M), b: square(...at(2000 + M / 2), M), strip: M / 2 },
];
const ids: Record<string, { a: string; b: string }> = {};

/** PostGIS's geodesic measures of a pair of input polygons (the reference). */
async function reference(a: Ring, b: Ring): Promise<{ i: number; a: number; b: number }> {
  const ga = JSON.stringify({ type: 'Polygon', coordinates: [closed(a)] });
  const gb = JSON.stringify({ type: 'Polygon', coordinates: [closed(b)] });
  const [r] = await env.sql<{ i: number; a: number; b: number }>(sql`
    SELECT ST_Area(ST_Intersection(x, y)::geography) AS i, ST_Area(x::geography) AS a, ST_Area(y::geography) AS b
      FROM (SELECT ST_SetSRID(ST_GeomFromGeoJSON(${ga}), 4326) AS x, ST_SetSRID(ST_GeomFromGeoJSON(${gb}), 4326) AS y) s`);
  return r!;
}

async function insertFarm(tenantId: string, farmerId: string, ring: Ring, name: string): Promise<string> {
  const geo = JSON.stringify({ type: 'Polygon', coordinates: [closed(ring)] });
  const [row] = await env.sql<{ id: string }>(sql`
    INSERT INTO farms (tenant_id, farmer_id, name, geom, area_sqm)
    SELECT ${tenantId}, ${farmerId}, ${name}, g, ST_Area(g::geography)
      FROM (SELECT ST_SetSRID(ST_GeomFromGeoJSON(${geo}), 4326) AS g) s RETURNING id`);
  return row!.id;
}

type Pair = { farm_id: string; name: string; area_sqm: number; share_of_this: number; share_of_other: number; iou: number; sliver: boolean };

beforeAll(async () => {
  env = await testEnv();
  t = await arrangeTenant(env, [{ name: 'Block', ring: [at(-500, -500), at(3000, -500), at(3000, 500), at(-500, 500), at(-500, -500)] }]);
  const [farmer] = await env.sql<{ id: string }>(sql`
    INSERT INTO farmers (tenant_id, first_name, last_name, folio_id) VALUES (${t.tenantId}, 'Pair', 'Measure', ${`F-${Date.now()}`}) RETURNING id`);
  for (const p of pairs)
    ids[p.name] = { a: await insertFarm(t.tenantId, farmer!.id, p.a, `${p.name} A`), b: await insertFarm(t.tenantId, farmer!.id, p.b, `${p.name} B`) };
  // Edge to edge with the half pair's first farm (west of it): interiors do not meet, so not a pair at all.
  ids['edge'] = { a: await insertFarm(t.tenantId, farmer!.id, square(...at(2000 - M), M), 'edge'), b: '' };
  // Another tenant's farm on top of the half pair's first: never listed for this tenant.
  const gb = await tenantGeo(env, env.fx.tenantB);
  ids['other'] = { a: await insertFarm(env.fx.tenantB, gb.farmerId, pairs[2]!.a, 'other tenant'), b: '' };
  // Group the registry under the default tolerance (1 m², 1 %), as saving a changed setting does.
  expect((await t.caller.put('/api/base/tenant-configurations', { overlap_min_area_sqm: 0, overlap_min_share: 0 })).status).toBe(200);
  expect((await t.caller.put('/api/base/tenant-configurations', { overlap_min_area_sqm: 1, overlap_min_share: 0.01 })).status).toBe(200);
}, 300_000);

describe('GET /farms/{id}/overlaps/', () => {
  it('measures each pair from either side as PostGIS does, and marks as slivers exactly the pairs the grouping leaves out', async () => {
    for (const p of pairs) {
      const ref = await reference(p.a, p.b);
      // The strip's analytic area (side × width) agrees with PostGIS to 1 % (the fixture's offsets are approximate).
      expect(ref.i).toBeGreaterThan(M * p.strip * 0.99);
      expect(ref.i).toBeLessThan(M * p.strip * 1.01);
      const fromA = (await t.caller.get(`/api/farms/${ids[p.name]!.a}/overlaps/`)).body.data as Pair[];
      const fromB = (await t.caller.get(`/api/farms/${ids[p.name]!.b}/overlaps/`)).body.data as Pair[];
      expect(
        fromA.map((x) => x.farm_id),
        p.name,
      ).toEqual([ids[p.name]!.b]);
      expect(fromB.map((x) => x.farm_id)).toEqual([ids[p.name]!.a]);
      const [a, b] = [fromA[0]!, fromB[0]!];
      expect(a.name).toBe(`${p.name} B`);
      expect(a.area_sqm).toBeCloseTo(ref.i, 4);
      expect(b.area_sqm).toBeCloseTo(ref.i, 4);
      expect(a.share_of_this).toBeCloseTo(ref.i / ref.a, 8);
      expect(a.share_of_other).toBeCloseTo(ref.i / ref.b, 8);
      expect(b.share_of_this).toBeCloseTo(ref.i / ref.b, 8);
      expect(b.share_of_other).toBeCloseTo(ref.i / ref.a, 8);
      expect(a.iou).toBeCloseTo(ref.i / (ref.a + ref.b - ref.i), 8);
      expect(b.iou).toBeCloseTo(a.iou, 10);
      expect(a.sliver, p.name).toBe(p.name !== 'half');
      expect(b.sliver).toBe(a.sliver);
      // The grouping agrees: a pair that is not a sliver is grouped, a sliver is not.
      const [g] = await env.sql<{ ga: string | null; gb: string | null }>(sql`
        SELECT (SELECT overlap_group_id FROM farms WHERE id = ${ids[p.name]!.a}) AS ga, (SELECT overlap_group_id FROM farms WHERE id = ${ids[p.name]!.b}) AS gb`);
      if (a.sliver) expect([g!.ga, g!.gb]).toEqual([null, null]);
      else expect(g!.ga && g!.ga === g!.gb).toBeTruthy();
    }
  });

  it('lists no farm that only touches, none of another tenant, and follows a change of the tolerance', async () => {
    // The half pair's first farm: its partner only (the edge farm touches, the other tenant's farm is not its tenant's).
    let half = (await t.caller.get(`/api/farms/${ids['half']!.a}/overlaps/`)).body.data as Pair[];
    expect(half.map((x) => x.farm_id)).toEqual([ids['half']!.b]);
    expect((await t.caller.get(`/api/farms/${ids['edge']!.a}/overlaps/`)).body.data).toEqual([]);
    // Zero tolerance: every pair whose interiors meet is grouped, so none is a sliver.
    expect((await t.caller.put('/api/base/tenant-configurations', { overlap_min_area_sqm: 0, overlap_min_share: 0 })).status).toBe(200);
    for (const p of pairs) {
      const list = (await t.caller.get(`/api/farms/${ids[p.name]!.a}/overlaps/`)).body.data as Pair[];
      expect(
        list.map((x) => x.sliver),
        p.name,
      ).toEqual([false]);
    }
    // An area tolerance of 60 m²: the 50 m² strip is a sliver again, the half overlap is not.
    await t.caller.put('/api/base/tenant-configurations', { overlap_min_area_sqm: 60, overlap_min_share: 0 });
    expect(((await t.caller.get(`/api/farms/${ids['thin']!.a}/overlaps/`)).body.data as Pair[])[0]!.sliver).toBe(true);
    half = (await t.caller.get(`/api/farms/${ids['half']!.a}/overlaps/`)).body.data as Pair[];
    expect(half[0]!.sliver).toBe(false);
    await t.caller.put('/api/base/tenant-configurations', { overlap_min_area_sqm: 1, overlap_min_share: 0.01 });
  });

  it("answers 404 for another tenant's farm, both ways, and for an unknown id", async () => {
    expect((await env.as('adminB').get(`/api/farms/${ids['half']!.a}/overlaps/`)).status).toBe(404);
    // Tenant B's farm lies on this tenant's half pair, but B sees no farm of this tenant in its list.
    const other = await env.as('adminB').get(`/api/farms/${ids['other']!.a}/overlaps/`);
    expect(other.status).toBe(200);
    const mine = new Set(Object.values(ids).flatMap((x) => [x.a, x.b]));
    for (const p of other.body.data as Pair[]) expect(mine.has(p.farm_id) && p.farm_id !== ids['other']!.a).toBe(false);
    expect((await t.caller.get(`/api/farms/${ids['other']!.a}/overlaps/`)).status).toBe(404);
    expect((await t.caller.get('/api/farms/7fb080fe-d23f-4e8f-9011-f0999678e6c2/overlaps/')).status).toBe(404);
    expect((await t.caller.get('/api/farms/not-a-uuid/overlaps/')).status).toBe(400);
  });
});
