// The overlap tolerance (issue 28): a tenant setting (minimum overlap area in m², minimum share of the smaller plot) with
// defaults that ignore digitising slivers; an analysis groups only pairs at or above it and reports every pair with its
// area, shares and intersection over union (slivers too, as "touching or sliver"); the registry's groups follow it, and
// changing it re-groups the registry. Areas are checked against PostGIS's geodesic areas of the same input polygons and
// against the strips' analytic areas.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { arrangeTenant, outcome } from '../../test/analysis-fixtures.js';
import { offset, square, type Ring } from '../../test/geo-fixtures.js';
import { withScope } from '../../db/client.js';
import { testEnv, type TestEnv } from '../../test/harness.js';
import { recomputeTenantOverlaps } from '../farm-overlaps/farm-overlaps.js';
import { regroupPendingTenants, regroupTenantFarms } from '../farm-overlaps/farm-overlaps.regroup.js';

let env: TestEnv;
let t: Awaited<ReturnType<typeof arrangeTenant>>;
const origin: [number, number] = [24.5, -21.3];
const M = 100;
const at = (east: number, north = 0) => offset(origin[0], origin[1], east, north);
const closed = (r: Ring) => [...r, r[0]!];

// Three pairs of 1 ha squares, 1 km apart: a 3 mm strip (0.3 m²: a sliver by area), a 0.5 m strip (50 m², 0.5 % of
// either: a sliver by share) and a half overlap (5,000 m², 50 %: an overlap).
const pairs: Array<{ name: string; a: Ring; b: Ring; strip: number }> = [
  { name: 'tiny', a: square(...at(0), M), b: square(...at(M - 0.003), M), strip: 0.003 },
  { name: 'thin', a: square(...at(1000), M), b: square(...at(1000 + M - 0.5), M), strip: 0.5 },
  { name: 'half', a: square(...at(2000), M), b: square(...at(2000 + M / 2), M), strip: M / 2 },
];

/** PostGIS's geodesic measures of a pair of input polygons (the reference). */
async function reference(a: Ring, b: Ring): Promise<{ i: number; a: number; b: number }> {
  const ga = JSON.stringify({ type: 'Polygon', coordinates: [closed(a)] });
  const gb = JSON.stringify({ type: 'Polygon', coordinates: [closed(b)] });
  const [r] = await env.sql<{ i: number; a: number; b: number }>(sql`
    SELECT ST_Area(ST_Intersection(x, y)::geography) AS i, ST_Area(x::geography) AS a, ST_Area(y::geography) AS b
      FROM (SELECT ST_SetSRID(ST_GeomFromGeoJSON(${ga}), 4326) AS x, ST_SetSRID(ST_GeomFromGeoJSON(${gb}), 4326) AS y) s`);
  return r!;
}

beforeAll(async () => {
  env = await testEnv();
  t = await arrangeTenant(env, [{ name: 'Block', ring: [at(-500, -500), at(3000, -500), at(3000, 500), at(-500, 500), at(-500, -500)] }]);
}, 120_000);

describe('the overlap tolerance setting', () => {
  it('has documented defaults, changes within bounds, and refuses bad values naming the field', async () => {
    const res = await t.caller.get('/api/base/tenant-configurations');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ overlap_min_area_sqm: 1, overlap_min_share: 0.01 });
    for (const [body, field] of [
      [{ overlap_min_area_sqm: -1 }, 'overlap_min_area_sqm'],
      [{ overlap_min_area_sqm: 'x' }, 'overlap_min_area_sqm'],
      [{ overlap_min_share: 1.5 }, 'overlap_min_share'],
      [{ overlap_min_share: -0.1 }, 'overlap_min_share'],
    ] as const) {
      const bad = await t.caller.put('/api/base/tenant-configurations', body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(bad.body.errors)[0]).toBe(field);
    }
    // Another tenant's admin changes their own configuration only.
    const before = (await env.as('adminB').get('/api/base/tenant-configurations')).body.data;
    expect((await t.caller.get('/api/base/tenant-configurations')).body.data.overlap_min_area_sqm).toBe(1);
    expect(before.tenant_id).not.toBe(t.tenantId);
  });
});

describe('an analysis', () => {
  it('groups only pairs at or above the tolerance, and reports every pair with its area, shares and IoU', async () => {
    const locations = pairs.flatMap((p) => [
      { farm_name: `${p.name} A`, farm_coordinates: closed(p.a) },
      { farm_name: `${p.name} B`, farm_coordinates: closed(p.b) },
    ]);
    const res = await t.caller.post('/api/custom-analysis/', { name: 'Tolerance', operational_areas: t.areaIds, locations, require_farm_recognition: false });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ overlap_min_area_sqm: 1, overlap_min_share: 0.01 });
    const { rows, detail } = await outcome(t.caller, res.body.data.id);
    expect(detail.overlapping_farmlands.count).toBe(2);
    // Rows 5 and 6 (the half overlap) form the one group; the slivers are not grouped.
    for (const n of [1, 2, 3, 4]) expect(rows.get(n)!.is_overlapping, `row ${n}`).toBe(false);
    expect(rows.get(5)!.is_overlapping).toBe(true);
    expect(rows.get(6)!.overlapping_id).toBe(rows.get(5)!.overlapping_id);

    const page = (await t.caller.get(`/api/custom-analysis/${res.body.data.id}/within/?page_size=10`)).body.data.results as Array<{
      row_number: number;
      overlaps: any[];
    }>;
    for (const [k, p] of pairs.entries()) {
      const ref = await reference(p.a, p.b);
      // The strip's analytic area (side × width) agrees with PostGIS to 0.5 %.
      expect(ref.i).toBeGreaterThan(M * p.strip * 0.995);
      expect(ref.i).toBeLessThan(M * p.strip * 1.005);
      const rowA = page.find((r) => r.row_number === 2 * k + 1)!;
      const rowB = page.find((r) => r.row_number === 2 * k + 2)!;
      expect(rowA.overlaps).toHaveLength(1);
      expect(rowB.overlaps).toHaveLength(1);
      const fromA = rowA.overlaps[0];
      const fromB = rowB.overlaps[0];
      expect(fromA.row_number).toBe(2 * k + 2);
      expect(fromB.row_number).toBe(2 * k + 1);
      expect(fromA.area_sqm).toBeCloseTo(ref.i, 4);
      expect(fromB.area_sqm).toBeCloseTo(ref.i, 4);
      expect(fromA.share_of_this).toBeCloseTo(ref.i / ref.a, 8);
      expect(fromA.share_of_other).toBeCloseTo(ref.i / ref.b, 8);
      expect(fromB.share_of_this).toBeCloseTo(ref.i / ref.b, 8);
      expect(fromA.iou).toBeCloseTo(ref.i / (ref.a + ref.b - ref.i), 8);
      expect(fromA.sliver, p.name).toBe(p.name !== 'half');
      expect(fromB.sliver).toBe(fromA.sliver);
    }
  }, 120_000);
});

describe('the registry', () => {
  it("re-groups the tenant's farms when the tolerance changes, with an activity entry", async () => {
    const [farmer] = await env.sql<{ id: string }>(sql`
      INSERT INTO farmers (tenant_id, first_name, last_name, folio_id) VALUES (${t.tenantId}, 'Tol', 'Erance', ${`F-${Date.now()}`}) RETURNING id`);
    const ids: string[] = [];
    for (const p of pairs) {
      for (const ring of [p.a, p.b]) {
        const geo = JSON.stringify({ type: 'Polygon', coordinates: [closed(ring)] });
        const [row] = await env.sql<{ id: string }>(sql`
          INSERT INTO farms (tenant_id, farmer_id, name, geom, area_sqm)
          SELECT ${t.tenantId}, ${farmer!.id}, 'Tolerance farm', g, ST_Area(g::geography)
            FROM (SELECT ST_SetSRID(ST_GeomFromGeoJSON(${geo}), 4326) AS g) s RETURNING id`);
        ids.push(row!.id);
      }
    }
    const grouped = async () => {
      const rows = await env.sql<{ id: string; overlap_group_id: string | null }>(
        sql`SELECT id, overlap_group_id FROM farms WHERE id = ANY(${`{${ids.join(',')}}`}::uuid[])`,
      );
      return ids.map((id) => rows.find((r) => r.id === id)!.overlap_group_id !== null);
    };
    // Every pair whose interiors meet counts when the tolerance is zero.
    let res = await t.caller.put('/api/base/tenant-configurations', { overlap_min_area_sqm: 0, overlap_min_share: 0 });
    expect(res.status).toBe(200);
    expect(await grouped()).toEqual([true, true, true, true, true, true]);
    // Back to the defaults: the slivers leave their groups, the half overlap stays.
    res = await t.caller.put('/api/base/tenant-configurations', { overlap_min_area_sqm: 1, overlap_min_share: 0.01 });
    expect(res.body.data).toMatchObject({ overlap_min_area_sqm: 1, overlap_min_share: 0.01 });
    expect(await grouped()).toEqual([false, false, false, false, true, true]);
    // An area tolerance alone: the 50 m² strip counts again, the 0.3 m² one does not.
    res = await t.caller.put('/api/base/tenant-configurations', { overlap_min_share: 0 });
    expect(await grouped()).toEqual([false, false, true, true, true, true]);
    const [log] = await env.sql<{ description: string }>(sql`
      SELECT description FROM activity_logs WHERE tenant_id = ${t.tenantId} AND description LIKE '%re-grouped%' ORDER BY created_at DESC LIMIT 1`);
    expect(log!.description).toContain('minimum overlap share 0 %');
    // Another tenant's registry is not touched, and another tenant cannot change this one's setting.
    const other = await env.as('adminB').put(`/api/base/tenant-configurations?tenant_id=${t.tenantId}`, { overlap_min_share: 0.5 });
    expect([403, 404]).toContain(other.status);
    expect((await t.caller.get('/api/base/tenant-configurations')).body.data.overlap_min_share).toBe(0);
  }, 120_000);

  it('re-groups in short batches as one transaction would, and finishes the registries flagged pending (migration 0029)', async () => {
    const state = async () =>
      env.sql<{ id: string; is_overlapping: boolean; overlap_group_id: string | null }>(sql`
        SELECT id, is_overlapping, overlap_group_id FROM farms WHERE tenant_id = ${t.tenantId} ORDER BY id`);
    await t.caller.put('/api/base/tenant-configurations', { overlap_min_area_sqm: 0, overlap_min_share: 0 });
    // The reference: the whole registry in one transaction.
    await withScope(env.deps.db, { kind: 'tenant', tenantId: t.tenantId }, (tx) => recomputeTenantOverlaps(tx, t.tenantId));
    const reference = await state();
    expect(reference.filter((r) => r.is_overlapping).length).toBeGreaterThanOrEqual(6);
    // Groups wiped and the registry flagged, as a registry grouped before the tolerance is after migration 0029.
    await env.sql(sql`UPDATE farms SET is_overlapping = false, overlap_group_id = NULL WHERE tenant_id = ${t.tenantId}`);
    await env.sql(sql`UPDATE tenants SET overlap_regroup_pending = (id = ${t.tenantId})`);
    // Batches of two farms: many short transactions.
    const r = await regroupTenantFarms(env.deps.db, t.tenantId, 2);
    expect(r.batches).toBeGreaterThan(4);
    expect(await state()).toEqual(reference);
    const [flag] = await env.sql<{ p: boolean }>(sql`SELECT overlap_regroup_pending AS p FROM tenants WHERE id = ${t.tenantId}`);
    expect(flag!.p).toBe(false);
    // The start-up pass finds the flagged registries only, and leaves the others' groups alone.
    await env.sql(sql`UPDATE farms SET is_overlapping = false, overlap_group_id = NULL WHERE tenant_id = ${t.tenantId}`);
    await env.sql(sql`UPDATE tenants SET overlap_regroup_pending = (id = ${t.tenantId})`);
    const others = await env.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM farms WHERE tenant_id <> ${t.tenantId} AND is_overlapping`);
    expect(await regroupPendingTenants(env.deps.db)).toBe(1);
    expect(await state()).toEqual(reference);
    expect(await env.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM farms WHERE tenant_id <> ${t.tenantId} AND is_overlapping`)).toEqual(others);
    expect(await regroupPendingTenants(env.deps.db), 'nothing is left pending').toBe(0);
  }, 120_000);
});
