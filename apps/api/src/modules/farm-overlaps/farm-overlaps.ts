// Overlap groups of a tenant's farms: two farms overlap when their interiors meet (touching is not overlap) with an
// intersection that reaches the tenant's overlap tolerance (issue 28: a minimum area in m², geodesic, and a minimum share
// of the smaller farm; smaller pairs are slivers, never grouped); groups are the connected components of that graph.
// PostGIS finds the pairs; the components are plain graph work.
// Farms flagged 'vanished' by retain keep their last boundary for review but take no part in the graph.
import { sql, type SQL } from 'drizzle-orm';
import { jsonb, queryRows, uuidArray, type Executor } from '../../db/client.js';
import { componentsOf } from '../../lib/union-find.js';

/** The tenant's overlap tolerance as a one-row subquery (min_area, min_share): its configuration, else the defaults. */
const tolerance = (tenantId: string) => sql`(SELECT coalesce(max(c.overlap_min_area_sqm), 1) AS min_area, coalesce(max(c.overlap_min_share), 0.01) AS min_share
    FROM tenant_configurations c WHERE c.tenant_id = ${tenantId})`;

/**
 * Farms `a` and `b` (table aliases) overlap: their interiors share area (ST_Relate '2********', cheap, first), and the
 * intersection's geodesic area (as farms' areas are measured) reaches the tolerance's area and share of the smaller farm.
 */
export function overlapHolds(a: string, b: string, tenantId: string): SQL {
  const x = sql.raw(a);
  const y = sql.raw(b);
  return sql`(ST_Relate(${x}.geom, ${y}.geom, '2********')
    AND (SELECT i.sqm >= t.min_area AND i.sqm >= t.min_share * least(${x}.area_sqm, ${y}.area_sqm)
           FROM (SELECT ST_Area(ST_Intersection(${x}.geom, ${y}.geom)::geography) AS sqm) i, ${tolerance(tenantId)} t))`;
}

export type FarmOverlapRow = { farm_id: string; name: string; area_sqm: number; share_of_this: number; share_of_other: number; iou: number; sliver: boolean };

/**
 * A farm's overlaps with the other farms of its tenant (issue 28), measured as the grouping decides them: the
 * intersection's geodesic area, its share of each farm (of its area_sqm, as the tolerance's share), intersection over
 * union, and `sliver` when the pair is under the tolerance (interiors meet, never grouped: "touching or sliver").
 * Grouped pairs first, then by area; at most `limit`. Farms flagged 'vanished' take no part, as in the grouping.
 */
export async function farmOverlapMeasures(tx: Executor, tenantId: string, farmId: string, limit: number): Promise<FarmOverlapRow[]> {
  const rows = await queryRows<FarmOverlapRow>(
    tx,
    sql`
    SELECT b.id::text AS farm_id, b.name, i.sqm AS area_sqm,
           coalesce(i.sqm / nullif(a.area_sqm, 0), 0) AS share_of_this, coalesce(i.sqm / nullif(b.area_sqm, 0), 0) AS share_of_other,
           coalesce(i.sqm / nullif(a.area_sqm + b.area_sqm - i.sqm, 0), 0) AS iou,
           NOT (i.sqm >= t.min_area AND i.sqm >= t.min_share * least(a.area_sqm, b.area_sqm)) AS sliver
      FROM farms a
      JOIN farms b ON b.tenant_id = a.tenant_id AND a.geom && b.geom AND b.id <> a.id
     CROSS JOIN LATERAL (SELECT ST_Area(ST_Intersection(a.geom, b.geom)::geography) AS sqm) i
     CROSS JOIN ${tolerance(tenantId)} t
     WHERE a.tenant_id = ${tenantId} AND a.id = ${farmId}
       AND a.flag IS DISTINCT FROM 'vanished' AND b.flag IS DISTINCT FROM 'vanished'
       AND ST_Relate(a.geom, b.geom, '2********')
     ORDER BY sliver, i.sqm DESC, b.id
     LIMIT ${limit}`,
  );
  return rows.map((r) => ({
    ...r,
    area_sqm: Number(r.area_sqm),
    share_of_this: Number(r.share_of_this),
    share_of_other: Number(r.share_of_other),
    iou: Number(r.iou),
    sliver: Boolean(r.sliver),
  }));
}

/** Pairs of overlapping farms of one tenant. The `&&` prefilter keeps the GiST index in play; ST_Relate '2********' = interiors share area. */
export async function overlapPairs(tx: Executor, tenantId: string, farmIds?: string[]): Promise<Array<[string, string]>> {
  const subset = farmIds && farmIds.length > 0 ? sql`AND (a.id = ANY(${uuidArray(farmIds)}) OR b.id = ANY(${uuidArray(farmIds)}))` : sql``;
  const res = await queryRows<{ a: string; b: string }>(
    tx,
    sql`
    SELECT a.id AS a, b.id AS b
      FROM farms a
      JOIN farms b ON b.tenant_id = a.tenant_id AND a.geom && b.geom AND a.id <> b.id
     WHERE a.tenant_id = ${tenantId} ${subset}
       AND a.flag IS DISTINCT FROM 'vanished' AND b.flag IS DISTINCT FROM 'vanished'
       AND ${overlapHolds('a', 'b', tenantId)}`,
  );
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

/** A farm whose overlap group changed: its group now (null: it overlaps nothing any more) and before. */
export type Regrouped = { id: string; farmer_id: string; overlap_group_id: string | null; previous_group_id: string | null };

const REGROUPED = sql`f.id, f.farmer_id, f.overlap_group_id, o.overlap_group_id AS previous_group_id`;

/** Writes each farm's group (null: overlapping nothing), only where it changed; returns the farms whose group changed. */
export async function writeGroups(tx: Executor, tenantId: string, rows: Array<{ id: string; gid: string | null }>): Promise<Regrouped[]> {
  if (rows.length === 0) return [];
  return queryRows<Regrouped>(
    tx,
    sql`
    UPDATE farms f SET is_overlapping = (g.gid IS NOT NULL), overlap_group_id = g.gid
      FROM jsonb_to_recordset(${jsonb(rows)}) AS g(id uuid, gid uuid), farms o
     WHERE f.tenant_id = ${tenantId} AND f.id = g.id AND o.id = f.id
       AND (f.is_overlapping IS DISTINCT FROM (g.gid IS NOT NULL) OR f.overlap_group_id IS DISTINCT FROM g.gid)
    RETURNING ${REGROUPED}`,
  );
}

/**
 * Connected components of the overlap graph over the given farms, by breadth-first search: each step asks which of the
 * farms not yet reached overlap one of the frontier, and a farm is tested only until one witness is found. A group of
 * 1,000 identical farms costs 1,000 tests (one step), where all pairs would cost 500,000.
 */
async function componentsByBfs(tx: Executor, tenantId: string, ids: string[]): Promise<Map<string, string>> {
  const live = await queryRows<{ id: string }>(
    tx,
    sql`
    SELECT id FROM farms WHERE tenant_id = ${tenantId} AND id = ANY(${uuidArray(ids)}) AND flag IS DISTINCT FROM 'vanished'`,
  );
  const remaining = new Set(live.map((r) => r.id));
  const out = new Map<string, string>();
  while (remaining.size > 0) {
    const seed = [...remaining].sort()[0]!;
    remaining.delete(seed);
    const members = [seed];
    let frontier = [seed];
    while (frontier.length > 0 && remaining.size > 0) {
      const found = await queryRows<{ id: string }>(
        tx,
        sql`
        SELECT b.id FROM farms b
         WHERE b.tenant_id = ${tenantId} AND b.id = ANY(${uuidArray([...remaining])})
           AND EXISTS (SELECT 1 FROM farms f WHERE f.tenant_id = ${tenantId} AND f.id = ANY(${uuidArray(frontier)}) AND f.geom && b.geom
                        AND ${overlapHolds('f', 'b', tenantId)})`,
      );
      frontier = found.map((r) => r.id);
      for (const id of frontier) remaining.delete(id);
      members.push(...frontier);
    }
    if (members.length < 2) continue;
    const gid = members.reduce((m, id) => (id < m ? id : m));
    for (const id of members) out.set(id, gid);
  }
  return out;
}

/**
 * Keeps overlap state correct after writes to some farms, touching only the components that can have changed: the
 * written farms, their former groups (formerGroupIds: groups of farms that were deleted or changed), the farms they now
 * overlap, and those farms' groups. No edge can leave that set, so its components are exact. Caller's transaction.
 *
 * New farms only (no former groups, the written farms had none): nothing was removed, so every existing group stays
 * connected and only merges: the groups the new farms overlap join them, without testing any pair inside a group. A
 * farm captured on top of 1,000 identical farms costs 1,000 tests, not a million.
 *
 * regrouped: every farm whose group id changed (the written farms, farms that joined them, and the farms of a group
 * absorbed by a merge, whose group id becomes the merged group's), with the group before; the caller raises
 * farm.overlap_group_joined for those that now have a group (docs/decisions/0075-webhooks.md).
 */
export async function refreshOverlaps(
  tx: Executor,
  tenantId: string,
  changedIds: string[],
  formerGroupIds: Array<string | null> = [],
): Promise<{ affected: number; regrouped: Regrouped[] }> {
  const groups = formerGroupIds.filter((g): g is string => !!g);
  const edges = await queryRows<{ a: string; b: string; a_group: string | null; b_group: string | null }>(
    tx,
    sql`
    SELECT s.id AS a, b.id AS b, s.overlap_group_id AS a_group, b.overlap_group_id AS b_group
      FROM farms s
      JOIN farms b ON b.tenant_id = ${tenantId} AND b.geom && s.geom AND b.id <> s.id
     WHERE s.tenant_id = ${tenantId} AND s.id = ANY(${uuidArray(changedIds)})
       AND s.flag IS DISTINCT FROM 'vanished' AND b.flag IS DISTINCT FROM 'vanished'
       AND ${overlapHolds('s', 'b', tenantId)}`,
  );
  const [seedGroups] = await queryRows<{ n: number }>(
    tx,
    sql`
    SELECT count(*)::int AS n FROM farms WHERE tenant_id = ${tenantId} AND id = ANY(${uuidArray(changedIds)}) AND overlap_group_id IS NOT NULL`,
  );

  if (groups.length === 0 && (seedGroups?.n ?? 0) === 0) {
    // Merge only. Units: the written farms, the farms they overlap, and those farms' existing groups (a group's id is
    // its smallest member's id, so the merged group's id is the smallest of the units' ids).
    const unitOf = (id: string, group: string | null) => group ?? id;
    const uf = componentsOf(edges.map((e) => [unitOf(e.a, e.a_group), unitOf(e.b, e.b_group)] as const));
    const byRoot = new Map<string, { farms: string[]; groups: string[] }>();
    for (const e of edges) {
      for (const [id, group] of [
        [e.a, e.a_group],
        [e.b, e.b_group],
      ] as const) {
        const root = uf.get(unitOf(id, group))!;
        const entry = byRoot.get(root) ?? { farms: [], groups: [] };
        if (group) entry.groups.push(group);
        else entry.farms.push(id);
        byRoot.set(root, entry);
      }
    }
    const regrouped: Regrouped[] = [];
    for (const [root, { farms, groups: joined }] of byRoot) {
      const gid = [...farms, ...joined].reduce((m, id) => (id < m ? id : m), root);
      regrouped.push(
        ...(await queryRows<Regrouped>(
          tx,
          sql`
        UPDATE farms f SET is_overlapping = true, overlap_group_id = ${gid}
          FROM farms o
         WHERE f.tenant_id = ${tenantId} AND o.id = f.id AND (f.id = ANY(${uuidArray([...new Set(farms)])}) OR f.overlap_group_id = ANY(${uuidArray([...new Set(joined)])}))
           AND f.overlap_group_id IS DISTINCT FROM ${gid}
        RETURNING ${REGROUPED}`,
        )),
      );
    }
    return { affected: edges.length, regrouped };
  }

  // Edges may have gone (an edit, a deletion, a retain): recompute the components of everything that may have split.
  const affectedRows = await queryRows<{ id: string }>(
    tx,
    sql`
    WITH g AS (
      SELECT overlap_group_id AS gid FROM farms WHERE tenant_id = ${tenantId} AND id = ANY(${uuidArray(changedIds)}) AND overlap_group_id IS NOT NULL
      UNION SELECT x FROM unnest(${uuidArray([...groups, ...edges.map((e) => e.b_group).filter((x): x is string => !!x)])}) AS x
    )
    SELECT x AS id FROM unnest(${uuidArray([...changedIds, ...edges.map((e) => e.b)])}) AS x
    UNION SELECT f.id FROM farms f WHERE f.tenant_id = ${tenantId} AND f.overlap_group_id IN (SELECT gid FROM g)`,
  );
  const affected = [...new Set(affectedRows.map((r) => r.id))];
  if (affected.length === 0) return { affected: 0, regrouped: [] };
  const comp = await componentsByBfs(tx, tenantId, affected);
  const regrouped = await writeGroups(
    tx,
    tenantId,
    affected.map((id) => ({ id, gid: comp.get(id) ?? null })),
  );
  return { affected: affected.length, regrouped };
}
