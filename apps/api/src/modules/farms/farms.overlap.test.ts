// Properties of the registry's overlap state (fast-check): overlap is symmetric, groups are exactly the connected
// components of the overlap graph, and the incremental refresh after each write agrees with a full recompute.
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { withScope } from '../../db/client.js';
import { offset } from '../../test/geo-fixtures.js';
import { testEnv, type TestEnv } from '../../test/harness.js';
import { componentsOf as components } from '../../lib/union-find.js';
import { recomputeTenantOverlaps, refreshOverlaps } from '../farm-overlaps/farm-overlaps.js';

let env: TestEnv;
let tenantId: string;
let farmerId: string;
const ORIGIN: [number, number] = [-60.5, -10.5];

beforeAll(async () => {
  env = await testEnv();
  const [t] = await env.sql<{ id: string }>(sql`INSERT INTO tenants (name) VALUES (${`Overlap props ${process.pid}`}) RETURNING id`);
  tenantId = t!.id;
  const [f] = await env.sql<{ id: string }>(
    sql`INSERT INTO farmers (tenant_id, first_name, last_name, folio_id) VALUES (${tenantId}, 'Prop', 'Farmer', 'PROP-1') RETURNING id`,
  );
  farmerId = f!.id;
});

/** Rectangles on a 10 m grid, so that overlapping, touching and disjoint cases are all frequent. */
const rectArb = fc.record({
  x: fc.integer({ min: 0, max: 12 }),
  y: fc.integer({ min: 0, max: 12 }),
  w: fc.integer({ min: 1, max: 5 }),
  h: fc.integer({ min: 1, max: 5 }),
});
type Rect = { x: number; y: number; w: number; h: number };
const ringOf = (r: Rect) => {
  const sw = offset(...ORIGIN, r.x * 10, r.y * 10);
  const ne = offset(...ORIGIN, (r.x + r.w) * 10, (r.y + r.h) * 10);
  return [sw, [ne[0], sw[1]], ne, [sw[0], ne[1]], sw];
};

const inTenant = <T>(fn: Parameters<typeof withScope<T>>[2]) => withScope(env.deps.db, { kind: 'tenant', tenantId }, fn);

async function insert(r: Rect): Promise<string> {
  const geo = JSON.stringify({ type: 'Polygon', coordinates: [ringOf(r)] });
  const [row] = await env.sql<{ id: string }>(sql`
    INSERT INTO farms (tenant_id, farmer_id, name, geom, area_sqm)
    SELECT ${tenantId}, ${farmerId}, 'p', g, ST_Area(g::geography) FROM (SELECT ST_SetSRID(ST_GeomFromGeoJSON(${geo}), 4326) AS g) s RETURNING id`);
  return row!.id;
}

async function state() {
  const farms = await env.sql<{ id: string; is_overlapping: boolean; overlap_group_id: string | null }>(
    sql`SELECT id, is_overlapping, overlap_group_id FROM farms WHERE tenant_id = ${tenantId} ORDER BY id`,
  );
  const rel = await env.sql<{ a: string; b: string; ab: boolean; ba: boolean }>(sql`
    SELECT a.id AS a, b.id AS b, ST_Relate(a.geom, b.geom, '2********') AS ab, ST_Relate(b.geom, a.geom, '2********') AS ba
      FROM farms a JOIN farms b ON b.tenant_id = a.tenant_id AND a.id <> b.id WHERE a.tenant_id = ${tenantId}`);
  return { farms, rel };
}

/** Components by breadth-first search: independent of the union-find under test. */
function bfsComponents(ids: string[], edges: Array<[string, string]>): string[][] {
  const adj = new Map(ids.map((id) => [id, [] as string[]]));
  for (const [a, b] of edges) {
    adj.get(a)!.push(b);
    adj.get(b)!.push(a);
  }
  const seen = new Set<string>();
  const out: string[][] = [];
  for (const id of ids) {
    if (seen.has(id) || adj.get(id)!.length === 0) continue;
    const comp: string[] = [];
    const queue = [id];
    seen.add(id);
    while (queue.length) {
      const x = queue.shift()!;
      comp.push(x);
      for (const y of adj.get(x)!) {
        if (seen.has(y)) continue;
        seen.add(y);
        queue.push(y);
      }
    }
    out.push(comp.sort());
  }
  return out.sort((p, q) => p[0]!.localeCompare(q[0]!));
}

async function assertConsistent() {
  const { farms, rel } = await state();
  for (const r of rel) expect(r.ab, 'ST_Relate overlap is symmetric').toBe(r.ba);
  const edges = rel.filter((r) => r.ab && r.a < r.b).map((r) => [r.a, r.b] as [string, string]);
  const expected = bfsComponents(
    farms.map((f) => f.id),
    edges,
  );
  const byGroup = new Map<string, string[]>();
  for (const f of farms) {
    expect(f.is_overlapping).toBe(f.overlap_group_id !== null);
    if (f.overlap_group_id) byGroup.set(f.overlap_group_id, [...(byGroup.get(f.overlap_group_id) ?? []), f.id]);
  }
  const actual = [...byGroup.values()].map((g) => g.sort()).sort((p, q) => p[0]!.localeCompare(q[0]!));
  expect(actual).toEqual(expected);
}

describe('overlap state (properties)', () => {
  it('union-find components equal the connected components of any edge list', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 15 }), fc.integer({ min: 0, max: 15 })), { maxLength: 30 }), (pairs) => {
        const edges = pairs
          .filter(([a, b]) => a !== b)
          .map(([a, b]) => [`n${String(a).padStart(2, '0')}`, `n${String(b).padStart(2, '0')}`] as [string, string]);
        const ids = [...new Set(edges.flat())].sort();
        const uf = components(edges);
        const groups = new Map<string, string[]>();
        for (const id of ids) groups.set(uf.get(id)!, [...(groups.get(uf.get(id)!) ?? []), id]);
        const actual = [...groups.values()].map((g) => g.sort()).sort((p, q) => p[0]!.localeCompare(q[0]!));
        expect(actual).toEqual(bfsComponents(ids, edges));
      }),
      { numRuns: 200 },
    );
  });

  it('after every insert, edit and delete, the incremental refresh leaves symmetric overlaps grouped by connected component', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(rectArb, { minLength: 2, maxLength: 7 }),
        fc.array(fc.record({ kind: fc.constantFrom('move', 'delete'), index: fc.nat(), to: rectArb }), { maxLength: 3 }),
        async (rects, edits) => {
          await env.sql(sql`DELETE FROM farms WHERE tenant_id = ${tenantId}`);
          const ids: string[] = [];
          for (const r of rects) {
            const id = await insert(r);
            ids.push(id);
            await inTenant((tx) => refreshOverlaps(tx, tenantId, [id]));
          }
          await assertConsistent();
          for (const e of edits) {
            if (ids.length === 0) break;
            const id = ids[e.index % ids.length]!;
            const [before] = await env.sql<{ g: string | null }>(sql`SELECT overlap_group_id AS g FROM farms WHERE id = ${id}`);
            if (e.kind === 'delete') {
              await env.sql(sql`DELETE FROM farms WHERE id = ${id}`);
              ids.splice(ids.indexOf(id), 1);
              await inTenant((tx) => refreshOverlaps(tx, tenantId, [], [before!.g]));
            } else {
              const geo = JSON.stringify({ type: 'Polygon', coordinates: [ringOf(e.to)] });
              await env.sql(sql`UPDATE farms SET geom = ST_SetSRID(ST_GeomFromGeoJSON(${geo}), 4326) WHERE id = ${id}`);
              await inTenant((tx) => refreshOverlaps(tx, tenantId, [id], [before!.g]));
            }
            await assertConsistent();
          }
          // The full recompute finds nothing to change.
          const snapshot = (await state()).farms;
          await inTenant((tx) => recomputeTenantOverlaps(tx, tenantId));
          expect((await state()).farms).toEqual(snapshot);
        },
      ),
      { numRuns: 25 },
    );
  });
});

describe('overlap upkeep on a dense group (issue 16)', () => {
  it('captures a farm on top of 1,000 identical farms, then moves one away, without testing every pair', async () => {
    await env.sql(sql`DELETE FROM farms WHERE tenant_id = ${tenantId}`);
    const geo = JSON.stringify({ type: 'Polygon', coordinates: [ringOf({ x: 2, y: 2, w: 3, h: 3 })] });
    // 1,000 identical farms in one group, written directly (a consistent state: the group's id is its smallest member).
    await env.sql(sql`
      INSERT INTO farms (tenant_id, farmer_id, name, geom, area_sqm)
      SELECT ${tenantId}, ${farmerId}, 'same ' || i, g, ST_Area(g::geography)
        FROM generate_series(1, 1000) i, (SELECT ST_SetSRID(ST_GeomFromGeoJSON(${geo}), 4326) AS g) s`);
    await env.sql(
      sql`UPDATE farms SET is_overlapping = true, overlap_group_id = (SELECT min(id::text)::uuid FROM farms WHERE tenant_id = ${tenantId}) WHERE tenant_id = ${tenantId}`,
    );

    const id = await insert({ x: 3, y: 3, w: 1, h: 1 });
    const t = await inTenant((tx) => refreshOverlaps(tx, tenantId, [id]));
    expect(t.affected).toBe(1000); // one edge per farm it overlaps, no pair inside the group re-tested
    // (state() would test all pairs itself: read the groups only.)
    const groupsOnly = () =>
      env.sql<{ id: string; is_overlapping: boolean; overlap_group_id: string | null }>(
        sql`SELECT id, is_overlapping, overlap_group_id FROM farms WHERE tenant_id = ${tenantId}`,
      );
    let s = { farms: await groupsOnly() };
    expect(new Set(s.farms.map((f) => f.overlap_group_id)).size).toBe(1);
    expect(s.farms.every((f) => f.is_overlapping)).toBe(true);
    expect(s.farms.length).toBe(1001);

    // Move one of the identical farms away: its old group is recomputed breadth-first.
    const [moved] = await env.sql<{ id: string; g: string }>(
      sql`SELECT id, overlap_group_id AS g FROM farms WHERE tenant_id = ${tenantId} AND name = 'same 7'`,
    );
    const away = JSON.stringify({ type: 'Polygon', coordinates: [ringOf({ x: 10, y: 10, w: 1, h: 1 })] });
    await env.sql(sql`UPDATE farms SET geom = ST_SetSRID(ST_GeomFromGeoJSON(${away}), 4326) WHERE id = ${moved!.id}`);
    await inTenant((tx) => refreshOverlaps(tx, tenantId, [moved!.id], [moved!.g]));
    s = { farms: await groupsOnly() };
    const after = new Map(s.farms.map((f) => [f.id, f]));
    expect(after.get(moved!.id)).toMatchObject({ is_overlapping: false, overlap_group_id: null });
    expect(new Set(s.farms.filter((f) => f.id !== moved!.id).map((f) => f.overlap_group_id)).size).toBe(1);
  }, 120_000);
});
