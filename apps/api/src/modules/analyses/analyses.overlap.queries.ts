// The overlap step's statements (see analyses.overlap.ts for the algorithm): given candidate pairs of one upload,
// PostGIS decides which overlap and by how much. The tenant id is always the first argument.
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.js';

// ---------- overlap step (see analyses.overlap.ts for the algorithm) ----------
// Candidates are found in the run's memory (analyses.box-index.ts); these statements test given pairs. Each row is
// found by a LATERAL probe of the primary key with LIMIT 1: a plain join of a long list of pairs could be planned as a
// hash join over every row of the analysis, once per statement.

/** Row numbers as a PostgreSQL int[] literal. */
export const intArray = (xs: readonly number[]) => `{${xs.join(',')}}`;

/** The overlap tolerance an analysis runs with: a pair is grouped when its overlap reaches both (else it is a sliver). */
export type Tolerance = { minAreaSqm: number; minShare: number };

/**
 * The measures of a pair whose interiors share area (ra, rb: the rows' geom and area_sqm), as a LATERAL subquery: the
 * intersection's geodesic area (as rows' areas are measured: ST_Area on the spheroid), each row's share of it,
 * intersection over union, and whether it is under the tolerance (a sliver).
 */
const pairMeasures = (t: Tolerance) => sql`
  CROSS JOIN LATERAL (SELECT ST_Area(ST_Intersection(ra.geom, rb.geom)::geography) AS sqm) i
  CROSS JOIN LATERAL (
    SELECT i.sqm, i.sqm / nullif(ra.area_sqm, 0) AS share_a, i.sqm / nullif(rb.area_sqm, 0) AS share_b,
           i.sqm / nullif(ra.area_sqm + rb.area_sqm - i.sqm, 0) AS iou,
           NOT (i.sqm >= ${t.minAreaSqm}::float8 AND i.sqm >= ${t.minShare}::float8 * least(ra.area_sqm, rb.area_sqm)) AS sliver) m`;

/** Keeps the measured pairs (a < b; a retry's pair is replaced), and answers the grouped ones. */
const keepPairs = (tenantId: string, id: string) => sql`
  kept AS (
    INSERT INTO custom_analysis_overlaps (analysis_id, tenant_id, a, b, area_sqm, share_a, share_b, iou, is_sliver)
    -- A pair can come twice in one statement (a crowded row and its candidate, each seen from the other): once is kept.
    SELECT DISTINCT ON (least(h.a, h.b), greatest(h.a, h.b)) ${id}::uuid, ${tenantId}::uuid, least(h.a, h.b), greatest(h.a, h.b), h.sqm,
           CASE WHEN h.a < h.b THEN coalesce(h.share_a, 0) ELSE coalesce(h.share_b, 0) END,
           CASE WHEN h.a < h.b THEN coalesce(h.share_b, 0) ELSE coalesce(h.share_a, 0) END, coalesce(h.iou, 0), h.sliver
      FROM hits h
     ORDER BY least(h.a, h.b), greatest(h.a, h.b)
    ON CONFLICT (analysis_id, a, b) DO UPDATE SET area_sqm = excluded.area_sqm, share_a = excluded.share_a, share_b = excluded.share_b,
                                                   iou = excluded.iou, is_sliver = excluded.is_sliver
  )
  SELECT h.a, h.b FROM hits h WHERE NOT h.sliver`;

const rowGeomArea = (tenantId: string, id: string, n: SQL) => sql`
  SELECT r.geom, r.area_sqm FROM custom_analysis_rows r WHERE r.analysis_id = ${id} AND r.row_number = ${n} AND r.tenant_id = ${tenantId} LIMIT 1`;

/**
 * Which of the given pairs of rows overlap: interiors share area (ST_Relate '2********'; touching is not overlap), and
 * the intersection reaches the tolerance. Every pair whose interiors meet is kept with its measures, slivers included.
 */
export async function overlapPairsOf(
  tx: Executor,
  tenantId: string,
  id: string,
  pairs: ReadonlyArray<readonly [number, number]>,
  t: Tolerance,
): Promise<Array<{ a: number; b: number }>> {
  if (pairs.length === 0) return [];
  return queryRows(
    tx,
    sql`
    WITH hits AS MATERIALIZED (
      SELECT p.a, p.b, m.sqm, m.share_a, m.share_b, m.iou, m.sliver
        FROM unnest(${intArray(pairs.map((p) => p[0]))}::int[], ${intArray(pairs.map((p) => p[1]))}::int[]) AS p(a, b)
        CROSS JOIN LATERAL (${rowGeomArea(tenantId, id, sql`p.a`)}) ra
        CROSS JOIN LATERAL (${rowGeomArea(tenantId, id, sql`p.b`)}) rb
        ${pairMeasures(t)}
       WHERE ST_Relate(ra.geom, rb.geom, '2********')
    ), ${keepPairs(tenantId, id)}`,
  );
}

/**
 * For each given row a, up to `max` of its given candidates that overlap it beyond the tolerance: the candidates are
 * tested as the array gives them, and no further once `max` are found (a crowded row: near-identical plots meet
 * hundreds of others). No ORDER BY: a sort would need every candidate tested first. The pairs found are kept with their
 * measures (a crowded row's slivers are not: it is cut short at its first `max` overlaps).
 */
export async function overlapHitsOf(
  tx: Executor,
  tenantId: string,
  id: string,
  rows: ReadonlyArray<{ a: number; cands: readonly number[] }>,
  max: number,
  t: Tolerance,
): Promise<Array<{ a: number; b: number }>> {
  if (rows.length === 0) return [];
  const flat: number[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  for (const r of rows) {
    starts.push(flat.length + 1);
    flat.push(...r.cands);
    ends.push(flat.length);
  }
  return queryRows(
    tx,
    sql`
    WITH hits AS MATERIALIZED (
      SELECT x.a, h.b, h.sqm, h.share_a, h.share_b, h.iou, h.sliver
        FROM unnest(${intArray(rows.map((r) => r.a))}::int[], ${intArray(starts)}::int[], ${intArray(ends)}::int[]) AS x(a, s, e)
        CROSS JOIN LATERAL (${rowGeomArea(tenantId, id, sql`x.a`)}) ra
        CROSS JOIN LATERAL (
          SELECT c.b, m.sqm, m.share_a, m.share_b, m.iou, m.sliver FROM unnest((${intArray(flat)}::int[])[x.s:x.e]) AS c(b)
            CROSS JOIN LATERAL (${rowGeomArea(tenantId, id, sql`c.b`)}) rb
            ${pairMeasures(t)}
           WHERE ST_Relate(ra.geom, rb.geom, '2********') AND NOT m.sliver
           LIMIT ${max}) h
    ), ${keepPairs(tenantId, id)}`,
  );
}

/** Removes the pairs an earlier attempt kept (a retry measures them again). */
export async function deleteOverlapPairs(tx: Executor, tenantId: string, id: string): Promise<void> {
  await tx.execute(sql`DELETE FROM custom_analysis_overlaps WHERE tenant_id = ${tenantId} AND analysis_id = ${id}`);
}

export type RowOverlap = { n: number; other: number; area_sqm: number; share_this: number; share_other: number; iou: number; is_sliver: boolean };

/** Each given row's overlap pairs from its side (grouped ones first, then by area), at most `perRow` a row: a page's details. */
export async function overlapsOfRows(tx: Executor, tenantId: string, id: string, rows: readonly number[], perRow: number): Promise<RowOverlap[]> {
  if (rows.length === 0) return [];
  return queryRows<RowOverlap>(
    tx,
    sql`
    SELECT x.n, o.* FROM unnest(${intArray(rows)}::int[]) AS x(n)
     CROSS JOIN LATERAL (
       SELECT * FROM (
         SELECT o.b AS other, o.area_sqm, o.share_a AS share_this, o.share_b AS share_other, o.iou, o.is_sliver FROM custom_analysis_overlaps o
          WHERE o.analysis_id = ${id} AND o.a = x.n AND o.tenant_id = ${tenantId}
         UNION ALL
         SELECT o.a, o.area_sqm, o.share_b, o.share_a, o.iou, o.is_sliver FROM custom_analysis_overlaps o
          WHERE o.analysis_id = ${id} AND o.b = x.n AND o.tenant_id = ${tenantId}
       ) p ORDER BY p.is_sliver, p.area_sqm DESC, p.other LIMIT ${perRow}) o`,
  );
}

/**
 * Rows whose overlaps could not be settled within the candidate bounds become row errors (with their exact twins): the
 * rule is that every row is checked, so a row that was not is reported, never silently grouped.
 */
export async function markTooDense(tx: Executor, tenantId: string, id: string, rows: number[], limit: number): Promise<void> {
  if (rows.length === 0) return;
  const ns = intArray(rows);
  const err = JSON.stringify([
    {
      field: 'farm_coordinates',
      code: 'overlap_too_dense',
      message: `farm_coordinates: this plot's outline meets more than ${limit} other plots of the upload that belong to separate overlap groups, too many to check one by one; remove repeated or near-identical plots, or split the upload`,
    },
  ]);
  await tx.execute(sql`
    UPDATE custom_analysis_rows SET category = 'error', errors = ${err}::jsonb, geom = NULL, operational_area_id = NULL, covered_fraction = NULL,
           is_unrecognized = false, is_overlapping = false, overlapping_id = NULL, dup_of = NULL
     WHERE tenant_id = ${tenantId} AND analysis_id = ${id} AND (row_number = ANY(${ns}::int[]) OR dup_of = ANY(${ns}::int[]))`);
}
