// The SQL of custom analyses: the CRUD of an analysis, its results, and the end of a run (totals, groups, completion);
// a run's claim, heartbeat and classify statements are in analyses.run.queries.ts, the overlap step's in
// analyses.overlap.queries.ts. Every statement is bounded to a batch or a range
// so that none holds PGlite's one connection for long. The tenant id is always the first argument.
import { sql, type SQL } from 'drizzle-orm';
import type { AnalysisGeometry, PlotRiskLevel, PlotRiskReasonItem } from '@farmland/contracts';
import { queryRows, readerOf, uuidArray, type Executor, type Reader } from '../../db/client.js';
import { listPage, type Total } from '../../db/pagination.js';
import { containsPattern } from '../../db/like.js';
import { intArray } from './analyses.overlap.queries.js';
import type { BatchSummary } from './analyses.run.queries.js';

export type AnalysisRow = {
  id: string;
  tenant_id: string;
  name: string;
  description: string | null;
  source_file_id: string | null;
  /** The uploaded file's own name (files.original_name), read with the analysis; absent from list pages. */
  source_file_name?: string | null;
  status: 'queued' | 'processing' | 'completed' | 'failed';
  progress: number;
  minimum_farm_size: number;
  require_farm_recognition: boolean;
  recognition_threshold: number;
  overlap_min_area_sqm: number;
  overlap_min_share: number;
  total_uploaded_data_count: number;
  total_area: number;
  within_count: number;
  outside_count: number;
  overlapping_count: number;
  unrecognized_count: number;
  error_count: number;
  warning_count: number;
  failure_reason: string | null;
  created_at: string | Date;
  completed_at: string | Date | null;
  parent_analysis_id: string | null;
};

export type AnalysisLink = { id: string; name: string; status: AnalysisRow['status']; created_at: string | Date };

/** The analysis's parent (the one it re-analyses) and its own follow-ups, oldest first (at most 100). */
export async function analysisLinks(
  tx: Executor,
  tenantId: string,
  a: Pick<AnalysisRow, 'id' | 'parent_analysis_id'>,
): Promise<{ parent: AnalysisLink | null; children: AnalysisLink[] }> {
  const parent = a.parent_analysis_id
    ? ((
        await queryRows<AnalysisLink>(
          tx,
          sql`SELECT id, name, status, created_at FROM custom_analyses WHERE tenant_id = ${tenantId} AND id = ${a.parent_analysis_id}`,
        )
      )[0] ?? null)
    : null;
  const children = await queryRows<AnalysisLink>(
    tx,
    sql`
    SELECT id, name, status, created_at FROM custom_analyses
     WHERE tenant_id = ${tenantId} AND parent_analysis_id = ${a.id} ORDER BY created_at, id LIMIT 100`,
  );
  return { parent, children };
}

export async function tenantAreaIds(tx: Executor, tenantId: string): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(tx, sql`SELECT id FROM operational_areas WHERE tenant_id = ${tenantId}`);
  return rows.map((r) => r.id);
}

export type TenantDefaults = { minimumFarmSize: number; recognitionThreshold: number; overlapMinAreaSqm: number; overlapMinShare: number };

export async function tenantDefaults(tx: Executor, tenantId: string): Promise<TenantDefaults> {
  const [row] = await queryRows<{ minimum_farm_size: number; recognition_threshold: number; overlap_min_area_sqm: number; overlap_min_share: number }>(
    tx,
    sql`SELECT minimum_farm_size, recognition_threshold, overlap_min_area_sqm, overlap_min_share FROM tenant_configurations WHERE tenant_id = ${tenantId}`,
  );
  return {
    minimumFarmSize: row?.minimum_farm_size ?? 100,
    recognitionThreshold: row?.recognition_threshold ?? 0.5,
    overlapMinAreaSqm: row?.overlap_min_area_sqm ?? 1,
    overlapMinShare: row?.overlap_min_share ?? 0.01,
  };
}

/**
 * Serialises the uploads of one tenant from here to the end of the transaction, so that two uploads at once cannot both
 * pass the queue-depth check with one slot left.
 */
export async function lockTenantQueue(tx: Executor, tenantId: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`analysis-queue:${tenantId}`}, 0))`);
}

/** The tenant's analyses waiting to start (queued; a released attempt waiting for its retry counts too). */
export async function countQueued(tx: Executor, tenantId: string): Promise<number> {
  const [r] = await queryRows<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM custom_analyses WHERE tenant_id = ${tenantId} AND status = 'queued'`);
  return r?.n ?? 0;
}

export async function insertAnalysis(
  tx: Executor,
  tenantId: string,
  a: {
    id: string;
    name: string;
    description: string | null;
    sourceFileId: string | null;
    minimumFarmSize: number;
    requireRecognition: boolean;
    threshold: number;
    overlapMinAreaSqm: number;
    overlapMinShare: number;
    total: number;
    createdBy: string;
    parentId: string | null;
  },
): Promise<AnalysisRow> {
  const [row] = await queryRows<AnalysisRow>(
    tx,
    sql`
    INSERT INTO custom_analyses (id, tenant_id, name, description, source_file_id, minimum_farm_size, require_farm_recognition, recognition_threshold,
                                 overlap_min_area_sqm, overlap_min_share, total_uploaded_data_count, created_by, parent_analysis_id)
    VALUES (${a.id}, ${tenantId}, ${a.name}, ${a.description}, ${a.sourceFileId}, ${a.minimumFarmSize}, ${a.requireRecognition}, ${a.threshold},
            ${a.overlapMinAreaSqm}, ${a.overlapMinShare}, ${a.total}, ${a.createdBy}, ${a.parentId})
    RETURNING *`,
  );
  if (!row) throw new Error('analysis insert returned nothing');
  return row;
}

export async function insertAnalysisAreas(tx: Executor, tenantId: string, analysisId: string, areaIds: string[]): Promise<void> {
  await tx.execute(sql`
    INSERT INTO custom_analysis_areas (analysis_id, operational_area_id, tenant_id)
    SELECT ${analysisId}, x, ${tenantId} FROM unnest(${uuidArray(areaIds)}) AS x ON CONFLICT DO NOTHING`);
}

/** One page of the tenant's analyses (newest first) with the count (db/pagination.ts), in one statement. */
export async function listAnalyses(
  run: Reader | Executor,
  tenantId: string,
  search: string | undefined,
  limit: number,
  offset: number,
): Promise<{ rows: AnalysisRow[]; total: Total }> {
  const where = search ? sql`AND (a.name ILIKE ${containsPattern(search)} OR a.description ILIKE ${containsPattern(search)})` : sql``;
  const from = sql`FROM custom_analyses a WHERE a.tenant_id = ${tenantId} ${where}`;
  return listPage<AnalysisRow>(
    readerOf(run),
    { rows: sql`SELECT a.id, a.created_at ${from}`, details: sql`SELECT a.* FROM page p JOIN custom_analyses a ON a.id = p.id`, count: { from } },
    limit,
    offset,
  );
}

export async function findAnalysis(tx: Executor, tenantId: string, id: string): Promise<AnalysisRow | null> {
  const [row] = await queryRows<AnalysisRow>(
    tx,
    sql`SELECT a.*, (SELECT f.original_name FROM files f WHERE f.id = a.source_file_id) AS source_file_name FROM custom_analyses a WHERE a.tenant_id = ${tenantId} AND a.id = ${id}`,
  );
  return row ?? null;
}

export async function analysisAreas(tx: Executor, tenantId: string, id: string): Promise<Array<{ id: string; name: string }>> {
  return queryRows(
    tx,
    sql`
    SELECT oa.id, oa.name FROM custom_analysis_areas ca JOIN operational_areas oa ON oa.id = ca.operational_area_id
     WHERE ca.tenant_id = ${tenantId} AND ca.analysis_id = ${id} ORDER BY oa.name, oa.id`,
  );
}

export async function chosenAreas(tx: Executor, tenantId: string, ids: string[]): Promise<Array<{ id: string; name: string }>> {
  return queryRows(tx, sql`SELECT id, name FROM operational_areas WHERE tenant_id = ${tenantId} AND id = ANY(${uuidArray(ids)})`);
}

export type FarmRow = {
  row_number: number;
  farm_name: string | null;
  area_sqm: number | null;
  row_data: Record<string, unknown>;
  errors: unknown;
  warnings: string[];
  category: 'within' | 'outside' | 'error';
  operational_area_id: string | null;
  operational_area: string | null;
  covered_fraction: number | null;
  is_overlapping: boolean;
  is_unrecognized: boolean;
  overlapping_id: number | null;
  group_size: number | null;
  geometry: AnalysisGeometry | null;
  /** Issue 29: the verdict against the analysis's reference layers (null without layers or geometry). */
  risk_level: PlotRiskLevel | null;
  risk: StoredRiskJson | null;
};

/** A row's stored verdict detail: reasons, and per pinned layer (in the analysis's order) the overlap m² and share. */
export type StoredRiskJson = { r: PlotRiskReasonItem[]; o: number[]; s: number[] };

export type ListKind = 'within' | 'outside' | 'overlapping' | 'unrecognized' | 'errors';

const kindFilter: Record<ListKind, SQL> = {
  within: sql`AND r.category = 'within'`,
  outside: sql`AND r.category = 'outside'`,
  overlapping: sql`AND r.is_overlapping`,
  unrecognized: sql`AND r.is_unrecognized`,
  errors: sql`AND r.category = 'error'`,
};

const farmColumns = sql`
    r.row_number, r.farm_name, r.area_sqm, r.row_data, r.errors, r.warnings, r.category, r.operational_area_id, oa.name AS operational_area,
    r.covered_fraction, r.is_overlapping, r.is_unrecognized, r.overlapping_id,
    CASE WHEN r.is_overlapping THEN r.group_size END AS group_size,
    CASE WHEN r.geom IS NOT NULL THEN ST_AsGeoJSON(r.geom, 7)::json END AS geometry, r.risk_level, r.risk`;

/** A list's order: row number; overlaps come grouped (by overlapping_id, then row number: the partial index's order). */
const listOrder = (kind: ListKind) => (kind === 'overlapping' ? sql`r.overlapping_id, r.row_number` : sql`r.row_number`);

/**
 * Where a keyset read resumes: after row `row` in the list's order. For overlaps the order is (group, row number), so the
 * cursor also holds that row's group (0 at the start: groups are numbered from 1).
 */
export type Cursor = { row: number; group: number };
export const START: Cursor = { row: 0, group: 0 };

/** The keyset condition: each kind walks its own index from the cursor (cat_idx, unrecognized_idx, overlap_idx), so a chunk reads its rows only. */
function afterRow(kind: ListKind, c: Cursor): SQL {
  return kind === 'overlapping' ? sql`AND (r.overlapping_id, r.row_number) > (${c.group}::int, ${c.row}::int)` : sql`AND r.row_number > ${c.row}`;
}

/** One page of a result list by page number (offset; pages start within the first rows of the list). */
export async function listFarms(tx: Executor, tenantId: string, id: string, kind: ListKind, limit: number, offset: number): Promise<FarmRow[]> {
  return queryRows<FarmRow>(
    tx,
    sql`
    SELECT ${farmColumns}
      FROM custom_analysis_rows r
      LEFT JOIN operational_areas oa ON oa.id = r.operational_area_id
     WHERE r.tenant_id = ${tenantId} AND r.analysis_id = ${id} ${kindFilter[kind]}
     ORDER BY ${listOrder(kind)} LIMIT ${limit} OFFSET ${offset}`,
  );
}

/** The cursor at row `n` when it is a row of the list (a cursor must name one, or be 0), else null. */
export async function cursorAt(tx: Executor, tenantId: string, id: string, kind: ListKind, n: number): Promise<Cursor | null> {
  if (n === 0) return START;
  const [row] = await queryRows<{ g: number | null }>(
    tx,
    sql`
    SELECT r.overlapping_id AS g FROM custom_analysis_rows r WHERE r.tenant_id = ${tenantId} AND r.analysis_id = ${id} AND r.row_number = ${n} ${kindFilter[kind]}`,
  );
  return row ? { row: n, group: row.g ?? 0 } : null;
}

/** A page of a result list by cursor: the rows after the cursor in the list's order (keyset; see afterRow). */
export async function listFarmsAfter(tx: Executor, tenantId: string, id: string, kind: ListKind, after: Cursor, limit: number): Promise<FarmRow[]> {
  return queryRows<FarmRow>(
    tx,
    sql`
    SELECT ${farmColumns}
      FROM custom_analysis_rows r
      LEFT JOIN operational_areas oa ON oa.id = r.operational_area_id
     WHERE r.tenant_id = ${tenantId} AND r.analysis_id = ${id} ${kindFilter[kind]} ${afterRow(kind, after)}
     ORDER BY ${listOrder(kind)} LIMIT ${limit}`,
  );
}

/**
 * The result map's rows after `after` (keyset on row_number), with a polygon, optionally within a box, as JSON text: one
 * feature object per row, comma-joined (the answer is built as text, like the farms layer, so 20,000 features are not
 * parsed into objects, re-validated and serialised again). Read in chunks so that no statement holds the embedded
 * connection long. Lean on purpose: area to 2 decimals, rings at 6 decimals (~0.1 m), `type` and `parts` only for a
 * MultiPolygon or a Point (absent means Polygon, as the contract says).
 */
export async function mapRowsJson(
  tx: Executor,
  tenantId: string,
  id: string,
  after: number,
  limit: number,
  bbox?: [number, number, number, number],
): Promise<{ json: string | null; n: number; last: number | null }> {
  const box = bbox ? sql`AND r.geom && ST_MakeEnvelope(${bbox[0]}, ${bbox[1]}, ${bbox[2]}, ${bbox[3]}, 4326)` : sql``;
  const [row] = await queryRows<{ json: string | null; n: number; last: number | null }>(
    tx,
    sql`
    WITH s AS (
      SELECT r.row_number, r.farm_name, r.category, r.is_overlapping, r.is_unrecognized, r.operational_area_id, r.area_sqm, r.geom,
             r.warnings, r.risk_level, GeometryType(r.geom) AS t
        FROM custom_analysis_rows r
       WHERE r.tenant_id = ${tenantId} AND r.analysis_id = ${id} AND r.geom IS NOT NULL AND r.category <> 'error' ${box}
         AND r.row_number > ${after}
       ORDER BY r.row_number LIMIT ${limit}
    ), f AS (
      SELECT s.row_number, s.warnings, s.risk_level,
             CASE s.t
               WHEN 'MULTIPOLYGON' THEN json_build_object(
                 'row_number', s.row_number, 'name', s.farm_name, 'category', s.category, 'is_overlapping', s.is_overlapping,
                 'is_unrecognized', s.is_unrecognized, 'operational_area', oa.name, 'area', round(s.area_sqm::numeric, 2),
                 'coordinates', (ST_AsGeoJSON(ST_GeometryN(s.geom, 1), 6)::json)->'coordinates',
                 'type', 'MultiPolygon', 'parts', (ST_AsGeoJSON(s.geom, 6)::json)->'coordinates')
               WHEN 'POINT' THEN json_build_object(
                 'row_number', s.row_number, 'name', s.farm_name, 'category', s.category, 'is_overlapping', s.is_overlapping,
                 'is_unrecognized', s.is_unrecognized, 'operational_area', oa.name, 'area', round(s.area_sqm::numeric, 2),
                 'coordinates', json_build_array(json_build_array((ST_AsGeoJSON(s.geom, 6)::json)->'coordinates')), 'type', 'Point')
               ELSE json_build_object(
                 'row_number', s.row_number, 'name', s.farm_name, 'category', s.category, 'is_overlapping', s.is_overlapping,
                 'is_unrecognized', s.is_unrecognized, 'operational_area', oa.name, 'area', round(s.area_sqm::numeric, 2),
                 'coordinates', (ST_AsGeoJSON(s.geom, 6)::json)->'coordinates')
             END AS feature
        FROM s LEFT JOIN operational_areas oa ON oa.id = s.operational_area_id
    )
    -- The row's warnings (issue 28) only when it has some: spliced into the object's text, so a clean row costs nothing.
    -- Issue 29: the verdict likewise, only when the analysis chose reference layers.
    SELECT string_agg(CASE WHEN f.risk_level IS NULL THEN f.x ELSE left(f.x, -1) || ', "risk_level" : ' || to_json(f.risk_level)::text || '}' END,
                      ',' ORDER BY f.row_number) AS json,
           count(*)::int AS n, max(f.row_number)::int AS last
      FROM (SELECT f.row_number, f.risk_level,
                   CASE WHEN f.warnings = '{}' THEN f.feature::text
                        ELSE left(f.feature::text, -1) || ', "warnings" : ' || to_json(f.warnings)::text || '}' END AS x
              FROM f) f`,
  );
  return row ?? { json: null, n: 0, last: null };
}

export async function countMapRows(tx: Executor, tenantId: string, id: string, bbox?: [number, number, number, number]): Promise<number> {
  const box = bbox ? sql`AND geom && ST_MakeEnvelope(${bbox[0]}, ${bbox[1]}, ${bbox[2]}, ${bbox[3]}, 4326)` : sql``;
  const [row] = await queryRows<{ n: number }>(
    tx,
    sql`
    SELECT count(*)::int AS n FROM custom_analysis_rows
     WHERE tenant_id = ${tenantId} AND analysis_id = ${id} AND geom IS NOT NULL AND category <> 'error' ${box}`,
  );
  return row?.n ?? 0;
}

export type ExportRow = {
  row_number: number;
  farm_name: string | null;
  category: string;
  is_overlapping: boolean;
  is_unrecognized: boolean;
  overlapping_id: number | null;
  group_size: number | null;
  area_sqm: number | null;
  operational_area: string | null;
  covered_fraction: number | null;
  errors: Array<{ field: string; message: string }> | null;
  warnings: string[];
  row_data: Record<string, unknown>;
  geometry: string | null;
  risk_level: PlotRiskLevel | null;
  risk: StoredRiskJson | null;
};

/** A category's rows after the cursor in the list's order (keyset, as listFarmsAfter), for the export. */
export async function exportRows(run: Reader | Executor, tenantId: string, id: string, kind: ListKind, after: Cursor, limit: number): Promise<ExportRow[]> {
  return readerOf(run)<ExportRow>(sql`
    SELECT r.row_number, r.farm_name, r.category, r.is_overlapping, r.is_unrecognized, r.overlapping_id,
           CASE WHEN r.is_overlapping THEN r.group_size END AS group_size, r.area_sqm, oa.name AS operational_area,
           r.covered_fraction, r.errors, r.warnings, r.row_data, CASE WHEN r.geom IS NOT NULL THEN ST_AsGeoJSON(r.geom, 6) END AS geometry, r.risk_level, r.risk
      FROM custom_analysis_rows r
      LEFT JOIN operational_areas oa ON oa.id = r.operational_area_id
     WHERE r.tenant_id = ${tenantId} AND r.analysis_id = ${id} ${kindFilter[kind]} ${afterRow(kind, after)}
     ORDER BY ${listOrder(kind)} LIMIT ${limit}`);
}

export async function errorRows(tx: Executor, tenantId: string, id: string, limit: number) {
  return queryRows<{ row_number: number; row_data: Record<string, unknown>; errors: unknown }>(
    tx,
    sql`
    SELECT row_number, row_data, errors FROM custom_analysis_rows
     WHERE tenant_id = ${tenantId} AND analysis_id = ${id} AND category = 'error' ORDER BY row_number LIMIT ${limit}`,
  );
}

export async function deleteAnalysisRow(tx: Executor, tenantId: string, id: string): Promise<void> {
  await tx.execute(sql`DELETE FROM custom_analyses WHERE tenant_id = ${tenantId} AND id = ${id}`);
}

/** The totals of an analysis from its stored rows (after rows were turned into errors by the overlap step). */
export async function rowTotals(tx: Executor, tenantId: string, id: string): Promise<BatchSummary> {
  const [r] = await queryRows<BatchSummary>(
    tx,
    sql`
    SELECT count(*) FILTER (WHERE category = 'within')::int AS within,
           count(*) FILTER (WHERE category = 'outside')::int AS outside,
           count(*) FILTER (WHERE category = 'error')::int AS errors,
           count(*) FILTER (WHERE is_unrecognized)::int AS unrecognized,
           count(*) FILTER (WHERE warnings <> '{}')::int AS warned,
           coalesce(sum(area_sqm) FILTER (WHERE category <> 'error'), 0)::float8 AS area
      FROM custom_analysis_rows WHERE tenant_id = ${tenantId} AND analysis_id = ${id}`,
  );
  return r ?? { within: 0, outside: 0, errors: 0, unrecognized: 0, warned: 0, area: 0 };
}

/**
 * Marks rows as overlapping with their group (a chunk sorted by row number). No join: the rows are found through the
 * primary key (the chunk's row range, then `row_number = ANY`, hashed), and
 * each row's group is read from a dense int[] indexed by row number (O(1) per row). Joining a recordset of (n, g) instead
 * depends on the planner: with no statistics on fresh rows it was planned as a nested loop over the recordset or over
 * the analysis's rows (8k rows: 5-8 s on PostgreSQL, 30 s per 1,000 rows on PGlite at 100k rows).
 */
export async function setOverlapGroups(tx: Executor, tenantId: string, id: string, groups: Array<{ n: number; g: number; size: number }>): Promise<void> {
  if (groups.length === 0) return;
  let lo = Infinity;
  let hi = -Infinity;
  for (const x of groups) {
    lo = Math.min(lo, x.n);
    hi = Math.max(hi, x.n);
  }
  // Gaps hold 0, not NULL: an int[] without NULLs is subscripted in O(1); with a null bitmap every access walks it.
  const dense = new Array<number>(hi - lo + 1).fill(0);
  const sizes = new Array<number>(hi - lo + 1).fill(0);
  for (const x of groups) {
    dense[x.n - lo] = x.g;
    sizes[x.n - lo] = x.size;
  }
  const ns = intArray(groups.map((x) => x.n));
  const gs = intArray(dense);
  const zs = intArray(sizes);
  // The group's size is stored with each row: counting it per listed row cost O(group size) per row (a page of a
  // 75,000-row group counted 75,000 rows 100 times, before the sort).
  await tx.execute(sql`
    UPDATE custom_analysis_rows r SET is_overlapping = true, overlapping_id = (${gs}::int[])[r.row_number - ${lo - 1}::int],
           group_size = (${zs}::int[])[r.row_number - ${lo - 1}::int]
     WHERE r.tenant_id = ${tenantId} AND r.analysis_id = ${id} AND r.row_number BETWEEN ${lo}::int AND ${hi}::int AND r.row_number = ANY(${ns}::int[])`);
}

export async function completeAnalysisRun(
  tx: Executor,
  tenantId: string,
  id: string,
  runId: string,
  s: { total: number; within: number; outside: number; errors: number; overlapping: number; unrecognized: number; warned: number; area: number },
): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`
    UPDATE custom_analyses SET status = 'completed', progress = 100, completed_at = now(), total_uploaded_data_count = ${s.total},
           within_count = ${s.within}, outside_count = ${s.outside}, error_count = ${s.errors}, overlapping_count = ${s.overlapping},
           unrecognized_count = ${s.unrecognized}, warning_count = ${s.warned}, total_area = ${s.area}, failure_reason = NULL, heartbeat_at = NULL, phase = NULL
     WHERE tenant_id = ${tenantId} AND id = ${id} AND run_id = ${runId} RETURNING id`,
  );
  return rows.length > 0;
}

/** Marks the analysis failed; the first real reason recorded by an earlier attempt wins over this one. Returns the analysis when this call failed it. */
export async function failAnalysis(
  tx: Executor,
  tenantId: string,
  id: string,
  reason: string,
  onlyStaleAfter: number | null = null,
): Promise<{ name: string; failure_reason: string | null } | null> {
  // onlyStaleAfter (seconds): a dead-lettered job must not fail an analysis that a newer job runs (or will run) after a requeue.
  const stale =
    onlyStaleAfter !== null
      ? sql`AND status = 'processing' AND (heartbeat_at IS NULL OR heartbeat_at < now() - make_interval(secs => ${onlyStaleAfter}))`
      : sql``;
  const rows = await queryRows<{ name: string; failure_reason: string | null }>(
    tx,
    sql`
    UPDATE custom_analyses SET status = 'failed', failure_reason = coalesce(failure_reason, ${reason}), completed_at = now(), heartbeat_at = NULL,
           within_count = 0, outside_count = 0, overlapping_count = 0, unrecognized_count = 0, error_count = 0, warning_count = 0, total_area = 0
     WHERE tenant_id = ${tenantId} AND id = ${id} AND status NOT IN ('completed', 'failed') ${stale}
     RETURNING name, failure_reason`,
  );
  return rows[0] ?? null;
}

/** The stored source file of an analysis (removed with it). */
export async function deleteSourceFile(tx: Executor, tenantId: string, fileId: string): Promise<string | null> {
  const [r] = await queryRows<{ storage_key: string }>(tx, sql`DELETE FROM files WHERE tenant_id = ${tenantId} AND id = ${fileId} RETURNING storage_key`);
  return r?.storage_key ?? null;
}
