// Overlap groups of a tenant's farms: two farms overlap when their interiors meet with positive area (touching is not
// overlap); groups are the connected components of that graph. PostGIS finds the pairs; the components are plain graph work.
import { sql } from 'drizzle-orm';
import { jsonb, queryRows, uuidArray, type Executor } from '../../db/client.js';

/** Pairs of overlapping farms of one tenant. The `&&` prefilter keeps the GiST index in play; ST_Relate '2********' = interiors share area. */
export async function overlapPairs(tx: Executor, tenantId: string, farmIds?: string[]): Promise<Array<[string, string]>> {
  const subset = farmIds && farmIds.length > 0 ? sql`AND (a.id = ANY(${uuidArray(farmIds)}) OR b.id = ANY(${uuidArray(farmIds)}))` : sql``;
  const res = await queryRows<{ a: string; b: string }>(tx, sql`
    SELECT a.id AS a, b.id AS b
      FROM farms a
      JOIN farms b ON b.tenant_id = a.tenant_id AND a.geom && b.geom AND a.id <> b.id
     WHERE a.tenant_id = ${tenantId} ${subset}
       AND ST_Relate(a.geom, b.geom, '2********')`);
  const seen = new Set<string>();
  const pairs: Array<[string, string]> = [];
  for (const r of res) {
    const [x, y] = r.a < r.b ? [r.a, r.b] : [r.b, r.a];
    const k = `${x}|${y}`;
    if (!seen.has(k)) {
      seen.add(k);
      pairs.push([x, y]);
    }
  }
  return pairs;
}

/** Union-find over the pairs: returns farm id → group id (the smallest member id, stable while the group is unchanged). */
export function components(pairs: Array<[string, string]>): Map<string, string> {
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let r = x;
    while (parent.get(r) !== r) r = parent.get(r)!;
    let c = x;
    while (c !== r) {
      const next = parent.get(c)!;
      parent.set(c, r);
      c = next;
    }
    return r;
  };
  for (const [a, b] of pairs) {
    if (!parent.has(a)) parent.set(a, a);
    if (!parent.has(b)) parent.set(b, b);
    const ra = find(a);
    const rb = find(b);
    if (ra < rb) parent.set(rb, ra);
    else if (rb < ra) parent.set(ra, rb);
  }
  const out = new Map<string, string>();
  for (const id of parent.keys()) out.set(id, find(id));
  return out;
}

/** Recomputes is_overlapping and overlap_group_id for every farm of the tenant, in the caller's transaction. */
export async function recomputeTenantOverlaps(tx: Executor, tenantId: string): Promise<{ overlapping: number; groups: number }> {
  const groups = components(await overlapPairs(tx, tenantId));
  const ids = [...groups.keys()];
  const gids = ids.map((id) => groups.get(id)!);
  await tx.execute(sql`
    UPDATE farms f SET is_overlapping = (g.gid IS NOT NULL), overlap_group_id = g.gid
      FROM farms f2
      LEFT JOIN jsonb_to_recordset(${jsonb(ids.map((id, i) => ({ id, gid: gids[i] })))}) AS g(id uuid, gid uuid) ON g.id = f2.id
     WHERE f.id = f2.id AND f.tenant_id = ${tenantId}
       AND (f.is_overlapping IS DISTINCT FROM (g.gid IS NOT NULL) OR f.overlap_group_id IS DISTINCT FROM g.gid)`);
  return { overlapping: ids.length, groups: new Set(gids).size };
}
