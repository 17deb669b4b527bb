// Overlap groups of a tenant's farms: two farms overlap when their interiors meet with positive area (touching is not
// overlap); groups are the connected components of that graph. PostGIS finds the pairs; the components are plain graph work.
// Farms flagged 'vanished' by retain keep their last boundary for review but take no part in the graph.
import { sql } from 'drizzle-orm';
import { jsonb, queryRows, uuidArray, type Executor } from '../../db/client.js';
import { componentsOf } from '../../lib/union-find.js';

/** Pairs of overlapping farms of one tenant. The `&&` prefilter keeps the GiST index in play; ST_Relate '2********' = interiors share area. */
export async function overlapPairs(tx: Executor, tenantId: string, farmIds?: string[]): Promise<Array<[string, string]>> {
  const subset = farmIds && farmIds.length > 0 ? sql`AND (a.id = ANY(${uuidArray(farmIds)}) OR b.id = ANY(${uuidArray(farmIds)}))` : sql``;
  const res = await queryRows<{ a: string; b: string }>(tx, sql`
    SELECT a.id AS a, b.id AS b
      FROM farms a
      JOIN farms b ON b.tenant_id = a.tenant_id AND a.geom && b.geom AND a.id <> b.id
     WHERE a.tenant_id = ${tenantId} ${subset}
       AND a.flag IS DISTINCT FROM 'vanished' AND b.flag IS DISTINCT FROM 'vanished'
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


/** Recomputes is_overlapping and overlap_group_id for every farm of the tenant, in the caller's transaction. */
export async function recomputeTenantOverlaps(tx: Executor, tenantId: string): Promise<{ overlapping: number; groups: number }> {
  // Farm id → group id: the smallest member id, stable while the group is unchanged.
  const groups = componentsOf(await overlapPairs(tx, tenantId));
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

/**
 * Keeps overlap state correct after writes to some farms, touching only the components that can have changed: the
 * written farms, their former groups (formerGroupIds: groups of farms that were deleted or changed), the farms they now
 * overlap, and those farms' groups. No edge can leave that set, so its components are exact. Caller's transaction.
 */
export async function refreshOverlaps(tx: Executor, tenantId: string, changedIds: string[], formerGroupIds: Array<string | null> = []): Promise<{ affected: number }> {
  const groups = formerGroupIds.filter((g): g is string => !!g);
  const affectedRows = await queryRows<{ id: string }>(tx, sql`
    WITH seeds AS (
      SELECT id, geom, overlap_group_id, flag FROM farms WHERE tenant_id = ${tenantId} AND id = ANY(${uuidArray(changedIds)})
    ), nbr AS (
      SELECT b.id, b.overlap_group_id
        FROM seeds s
        JOIN farms b ON b.tenant_id = ${tenantId} AND b.geom && s.geom AND b.id <> s.id
       WHERE s.flag IS DISTINCT FROM 'vanished' AND b.flag IS DISTINCT FROM 'vanished'
         AND ST_Relate(s.geom, b.geom, '2********')
    ), g AS (
      SELECT overlap_group_id AS gid FROM seeds WHERE overlap_group_id IS NOT NULL
      UNION SELECT overlap_group_id FROM nbr WHERE overlap_group_id IS NOT NULL
      UNION SELECT x FROM unnest(${uuidArray(groups)}) AS x
    )
    SELECT id FROM seeds
    UNION SELECT id FROM nbr
    UNION SELECT f.id FROM farms f WHERE f.tenant_id = ${tenantId} AND f.overlap_group_id IN (SELECT gid FROM g)`);
  const affected = affectedRows.map((r) => r.id);
  if (affected.length === 0) return { affected: 0 };
  const pairRows = await queryRows<{ a: string; b: string }>(tx, sql`
    SELECT a.id AS a, b.id AS b
      FROM farms a
      JOIN farms b ON b.tenant_id = a.tenant_id AND a.geom && b.geom AND a.id <> b.id
     WHERE a.tenant_id = ${tenantId} AND a.id = ANY(${uuidArray(affected)})
       AND a.flag IS DISTINCT FROM 'vanished' AND b.flag IS DISTINCT FROM 'vanished'
       AND ST_Relate(a.geom, b.geom, '2********')`);
  const comp = componentsOf(pairRows.map((r) => [r.a, r.b] as const));
  await tx.execute(sql`
    UPDATE farms f SET is_overlapping = (g.gid IS NOT NULL), overlap_group_id = g.gid
      FROM jsonb_to_recordset(${jsonb(affected.map((id) => ({ id, gid: comp.get(id) ?? null })))}) AS g(id uuid, gid uuid)
     WHERE f.tenant_id = ${tenantId} AND f.id = g.id
       AND (f.is_overlapping IS DISTINCT FROM (g.gid IS NOT NULL) OR f.overlap_group_id IS DISTINCT FROM g.gid)`);
  return { affected: affected.length };
}
