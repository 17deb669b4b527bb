// The SQL of overlap groups: their members, the provider's page of them, invalid members, and the retain cut (a group's
// other farms cut by the retained one). The registry's other reads and writes are in farms.queries.ts.
import { sql } from 'drizzle-orm';
import { queryRows, uuidArray, type Executor } from '../../db/client.js';
import { countList, type Total } from '../../db/pagination.js';
import { coveringArea } from './farms.queries.js';

export async function groupMemberIds(tx: Executor, tenantId: string, groupId: string): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(tx, sql`SELECT id FROM farms WHERE tenant_id = ${tenantId} AND overlap_group_id = ${groupId} ORDER BY id`);
  return rows.map((r) => r.id);
}

/** Overlap-group members (of any tenant in provider scope), for the overlapping-farms reference. */
export async function groupPage(
  tx: Executor,
  tenantId: string | null,
  groupId: string,
  limit: number,
  offset: number,
): Promise<{ ids: string[]; total: Total }> {
  const scope = tenantId ? sql`AND tenant_id = ${tenantId}` : sql``;
  const ids = await queryRows<{ id: string }>(
    tx,
    sql`SELECT id FROM farms WHERE overlap_group_id = ${groupId} ${scope} ORDER BY created_at, id LIMIT ${limit} OFFSET ${offset}`,
  );
  const total = await countList(tx, { from: sql`FROM farms WHERE overlap_group_id = ${groupId} ${scope}` }, offset, ids.length, limit);
  return { ids: ids.map((r) => r.id), total };
}

/** Geometries that PostGIS reports invalid among the given farms: the guard before any overlay (PGlite hides GEOS errors). */
export async function invalidGeometries(tx: Executor, tenantId: string, ids: string[]): Promise<Array<{ id: string; reason: string }>> {
  return queryRows<{ id: string; reason: string }>(
    tx,
    sql`SELECT id, ST_IsValidReason(geom) AS reason FROM farms WHERE tenant_id = ${tenantId} AND id = ANY(${uuidArray(ids)}) AND NOT ST_IsValid(geom)`,
  );
}

export type CutResult = { id: string; outcome: 'cut' | 'below_minimum' | 'vanished'; old_area: number; new_area: number | null; parts: number };

/**
 * Retain: every farm of the group whose interior meets the retained farm's loses that part. The cut uses the retained
 * boundary grown by 1e-9° (≈0.1 mm, mitred), because a plain ST_Difference leaves edges that ST_Relate still reads as
 * overlapping. Multi-part remainders keep their largest part; remainders that vanish keep the old boundary and are
 * flagged; remainders below the minimum are stored and flagged. Previous boundaries go to history. One statement.
 */
export async function cutGroupByRetained(
  tx: Executor,
  tenantId: string,
  v: { retainedId: string; groupId: string; minimumFarmSize: number; by: string | null },
): Promise<CutResult[]> {
  return queryRows<CutResult>(
    tx,
    sql`WITH r AS (
          SELECT geom FROM farms WHERE tenant_id = ${tenantId} AND id = ${v.retainedId} AND ST_IsValid(geom)
        ), o AS (
          SELECT f.id, f.geom, f.area_sqm
            FROM farms f, r
           WHERE f.tenant_id = ${tenantId} AND f.overlap_group_id = ${v.groupId} AND f.id <> ${v.retainedId}
             AND f.flag IS DISTINCT FROM 'vanished' AND ST_IsValid(f.geom)
             AND f.geom && r.geom AND ST_Relate(f.geom, r.geom, '2********')
        ), d AS (
          SELECT o.id, o.area_sqm AS old_area,
                 ST_CollectionExtract(ST_Difference(o.geom, ST_Buffer(r.geom, 1e-9, 'join=mitre')), 3) AS diff
            FROM o, r
        ), p AS (
          SELECT d.id, d.old_area, ST_NumGeometries(d.diff) AS parts,
                 (SELECT x.geom FROM ST_Dump(d.diff) x WHERE ST_IsValid(x.geom) ORDER BY ST_Area(x.geom::geography) DESC LIMIT 1) AS part
            FROM d
        ), c AS (
          SELECT p.id, p.old_area, coalesce(p.parts, 0) AS parts, p.part,
                 CASE WHEN p.part IS NULL OR ST_IsEmpty(p.part) THEN NULL ELSE ST_Area(p.part::geography) END AS new_area
            FROM p
        ), h AS (
          INSERT INTO farm_boundary_history (tenant_id, farm_id, geom, area_sqm, reason, created_by)
          SELECT ${tenantId}, f.id, f.geom, f.area_sqm, ${`retain:${v.retainedId}`}, ${v.by}
            FROM farms f JOIN c ON c.id = f.id
           WHERE c.new_area IS NOT NULL AND c.new_area > 0
          RETURNING farm_id
        ), u AS (
          UPDATE farms f
             SET geom = CASE WHEN c.new_area > 0 THEN c.part ELSE f.geom END,
                 area_sqm = CASE WHEN c.new_area > 0 THEN c.new_area ELSE f.area_sqm END,
                 flag = CASE WHEN c.new_area IS NULL OR c.new_area <= 0 THEN 'vanished'
                             WHEN c.new_area < ${v.minimumFarmSize} THEN 'below_minimum' END,
                 updated_at = now()
            FROM c
           WHERE f.tenant_id = ${tenantId} AND f.id = c.id
          RETURNING f.id
        )
        SELECT c.id,
               CASE WHEN c.new_area IS NULL OR c.new_area <= 0 THEN 'vanished' WHEN c.new_area < ${v.minimumFarmSize} THEN 'below_minimum' ELSE 'cut' END AS outcome,
               c.old_area, c.new_area, c.parts::int AS parts
          FROM c JOIN u ON u.id = c.id
         ORDER BY c.id`,
  );
}

/** After a boundary shrinks or moves, its operational area is recomputed by the same containment rule. */
export async function reassignOperationalAreas(tx: Executor, tenantId: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.execute(sql`
    UPDATE farms f SET operational_area_id = ${coveringArea(tenantId, sql`f.geom`)}
     WHERE f.tenant_id = ${tenantId} AND f.id = ANY(${uuidArray(ids)})`);
}
