// All SQL of custom analyses: the CRUD of an analysis and the pipeline's statements (classify a batch of staged rows,
// find overlapping pairs of one upload in row ranges, write the groups). Every statement is bounded to a batch or a range
// so that none holds PGlite's one connection for long. The tenant id is always the first argument.
import { sql, type SQL } from 'drizzle-orm';
import type { AnalysisGeometry } from '@farmland/contracts';
import { queryRows, readerOf, uuidArray, type Executor, type Reader } from '../../db/client.js';
import { listPage, type Total } from '../../db/pagination.js';
import { containsPattern } from '../../db/like.js';

export type AnalysisRow = {
  id: string;
  tenant_id: string;
  name: string;
  description: string | null;
  source_file_id: string | null;
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
export async function analysisLinks(tx: Executor, tenantId: string, a: Pick<AnalysisRow, 'id' | 'parent_analysis_id'>): Promise<{ parent: AnalysisLink | null; children: AnalysisLink[] }> {
  const parent = a.parent_analysis_id
    ? ((await queryRows<AnalysisLink>(tx, sql`SELECT id, name, status, created_at FROM custom_analyses WHERE tenant_id = ${tenantId} AND id = ${a.parent_analysis_id}`))[0] ?? null)
    : null;
  const children = await queryRows<AnalysisLink>(tx, sql`
    SELECT id, name, status, created_at FROM custom_analyses
     WHERE tenant_id = ${tenantId} AND parent_analysis_id = ${a.id} ORDER BY created_at, id LIMIT 100`);
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
  const [row] = await queryRows<AnalysisRow>(tx, sql`
    INSERT INTO custom_analyses (id, tenant_id, name, description, source_file_id, minimum_farm_size, require_farm_recognition, recognition_threshold,
                                 overlap_min_area_sqm, overlap_min_share, total_uploaded_data_count, created_by, parent_analysis_id)
    VALUES (${a.id}, ${tenantId}, ${a.name}, ${a.description}, ${a.sourceFileId}, ${a.minimumFarmSize}, ${a.requireRecognition}, ${a.threshold},
            ${a.overlapMinAreaSqm}, ${a.overlapMinShare}, ${a.total}, ${a.createdBy}, ${a.parentId})
    RETURNING *`);
  if (!row) throw new Error('analysis insert returned nothing');
  return row;
}

export async function insertAnalysisAreas(tx: Executor, tenantId: string, analysisId: string, areaIds: string[]): Promise<void> {
  await tx.execute(sql`
    INSERT INTO custom_analysis_areas (analysis_id, operational_area_id, tenant_id)
    SELECT ${analysisId}, x, ${tenantId} FROM unnest(${uuidArray(areaIds)}) AS x ON CONFLICT DO NOTHING`);
}

/** One page of the tenant's analyses (newest first) with the count (db/pagination.ts), in one statement. */
export async function listAnalyses(run: Reader | Executor, tenantId: string, search: string | undefined, limit: number, offset: number): Promise<{ rows: AnalysisRow[]; total: Total }> {
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
  const [row] = await queryRows<AnalysisRow>(tx, sql`SELECT * FROM custom_analyses WHERE tenant_id = ${tenantId} AND id = ${id}`);
  return row ?? null;
}

export async function analysisAreas(tx: Executor, tenantId: string, id: string): Promise<Array<{ id: string; name: string }>> {
  return queryRows(tx, sql`
    SELECT oa.id, oa.name FROM custom_analysis_areas ca JOIN operational_areas oa ON oa.id = ca.operational_area_id
     WHERE ca.tenant_id = ${tenantId} AND ca.analysis_id = ${id} ORDER BY oa.name, oa.id`);
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
};

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
    CASE WHEN r.geom IS NOT NULL THEN ST_AsGeoJSON(r.geom, 7)::json END AS geometry`;

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
  return queryRows<FarmRow>(tx, sql`
    SELECT ${farmColumns}
      FROM custom_analysis_rows r
      LEFT JOIN operational_areas oa ON oa.id = r.operational_area_id
     WHERE r.tenant_id = ${tenantId} AND r.analysis_id = ${id} ${kindFilter[kind]}
     ORDER BY ${listOrder(kind)} LIMIT ${limit} OFFSET ${offset}`);
}

/** The cursor at row `n` when it is a row of the list (a cursor must name one, or be 0), else null. */
export async function cursorAt(tx: Executor, tenantId: string, id: string, kind: ListKind, n: number): Promise<Cursor | null> {
  if (n === 0) return START;
  const [row] = await queryRows<{ g: number | null }>(tx, sql`
    SELECT r.overlapping_id AS g FROM custom_analysis_rows r WHERE r.tenant_id = ${tenantId} AND r.analysis_id = ${id} AND r.row_number = ${n} ${kindFilter[kind]}`);
  return row ? { row: n, group: row.g ?? 0 } : null;
}

/** A page of a result list by cursor: the rows after the cursor in the list's order (keyset; see afterRow). */
export async function listFarmsAfter(tx: Executor, tenantId: string, id: string, kind: ListKind, after: Cursor, limit: number): Promise<FarmRow[]> {
  return queryRows<FarmRow>(tx, sql`
    SELECT ${farmColumns}
      FROM custom_analysis_rows r
      LEFT JOIN operational_areas oa ON oa.id = r.operational_area_id
     WHERE r.tenant_id = ${tenantId} AND r.analysis_id = ${id} ${kindFilter[kind]} ${afterRow(kind, after)}
     ORDER BY ${listOrder(kind)} LIMIT ${limit}`);
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
  const [row] = await queryRows<{ json: string | null; n: number; last: number | null }>(tx, sql`
    WITH s AS (
      SELECT r.row_number, r.farm_name, r.category, r.is_overlapping, r.is_unrecognized, r.operational_area_id, r.area_sqm, r.geom,
             r.warnings, GeometryType(r.geom) AS t
        FROM custom_analysis_rows r
       WHERE r.tenant_id = ${tenantId} AND r.analysis_id = ${id} AND r.geom IS NOT NULL AND r.category <> 'error' ${box}
         AND r.row_number > ${after}
       ORDER BY r.row_number LIMIT ${limit}
    ), f AS (
      SELECT s.row_number, s.warnings,
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
    SELECT string_agg(CASE WHEN f.warnings = '{}' THEN f.feature::text
                           ELSE left(f.feature::text, -1) || ', "warnings" : ' || to_json(f.warnings)::text || '}' END,
                      ',' ORDER BY f.row_number) AS json,
           count(*)::int AS n, max(f.row_number)::int AS last FROM f`);
  return row ?? { json: null, n: 0, last: null };
}

export async function countMapRows(tx: Executor, tenantId: string, id: string, bbox?: [number, number, number, number]): Promise<number> {
  const box = bbox ? sql`AND geom && ST_MakeEnvelope(${bbox[0]}, ${bbox[1]}, ${bbox[2]}, ${bbox[3]}, 4326)` : sql``;
  const [row] = await queryRows<{ n: number }>(tx, sql`
    SELECT count(*)::int AS n FROM custom_analysis_rows
     WHERE tenant_id = ${tenantId} AND analysis_id = ${id} AND geom IS NOT NULL AND category <> 'error' ${box}`);
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
};

/** A category's rows after the cursor in the list's order (keyset, as listFarmsAfter), for the export. */
export async function exportRows(run: Reader | Executor, tenantId: string, id: string, kind: ListKind, after: Cursor, limit: number): Promise<ExportRow[]> {
  return readerOf(run)<ExportRow>(sql`
    SELECT r.row_number, r.farm_name, r.category, r.is_overlapping, r.is_unrecognized, r.overlapping_id,
           CASE WHEN r.is_overlapping THEN r.group_size END AS group_size, r.area_sqm, oa.name AS operational_area,
           r.covered_fraction, r.errors, r.warnings, r.row_data, CASE WHEN r.geom IS NOT NULL THEN ST_AsGeoJSON(r.geom, 6) END AS geometry
      FROM custom_analysis_rows r
      LEFT JOIN operational_areas oa ON oa.id = r.operational_area_id
     WHERE r.tenant_id = ${tenantId} AND r.analysis_id = ${id} ${kindFilter[kind]} ${afterRow(kind, after)}
     ORDER BY ${listOrder(kind)} LIMIT ${limit}`);
}

export async function errorRows(tx: Executor, tenantId: string, id: string, limit: number) {
  return queryRows<{ row_number: number; row_data: Record<string, unknown>; errors: unknown }>(tx, sql`
    SELECT row_number, row_data, errors FROM custom_analysis_rows
     WHERE tenant_id = ${tenantId} AND analysis_id = ${id} AND category = 'error' ORDER BY row_number LIMIT ${limit}`);
}

export async function deleteAnalysisRow(tx: Executor, tenantId: string, id: string): Promise<void> {
  await tx.execute(sql`DELETE FROM custom_analyses WHERE tenant_id = ${tenantId} AND id = ${id}`);
}

// ---------- pipeline ----------

/** The default of ANALYSIS_STALE_RUN_SECONDS: seconds without a heartbeat after which a run is taken for dead (its process ended). */
export const STALE_RUN_SECONDS = 45;

/**
 * Claims the analysis for one run: only a queued analysis, or one whose last run stopped beating (a crash), can be
 * claimed, and only by one run at a time. The first real failure reason of an earlier attempt is kept.
 */
export async function claimRun(tx: Executor, tenantId: string, id: string, runId: string, staleSeconds: number): Promise<{ attempts: number } | null> {
  const [row] = await queryRows<{ attempts: number }>(tx, sql`
    UPDATE custom_analyses SET status = 'processing', progress = 0, started_at = now(), attempts = attempts + 1, run_id = ${runId},
           heartbeat_at = now(), phase = 'prepare',
           within_count = 0, outside_count = 0, overlapping_count = 0, unrecognized_count = 0, error_count = 0, warning_count = 0, total_area = 0
     WHERE tenant_id = ${tenantId} AND id = ${id}
       AND (status = 'queued' OR (status = 'processing' AND (heartbeat_at IS NULL OR heartbeat_at < now() - make_interval(secs => ${staleSeconds}))))
    RETURNING attempts`);
  return row ?? null;
}

/** The run's heartbeat (and the step it is in); false when the run no longer holds the analysis. */
export async function beat(tx: Executor, tenantId: string, id: string, runId: string, phase?: string): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(tx, sql`
    UPDATE custom_analyses SET heartbeat_at = now(), phase = coalesce(${phase ?? null}, phase)
     WHERE tenant_id = ${tenantId} AND id = ${id} AND run_id = ${runId} AND status = 'processing' RETURNING id`);
  return rows.length > 0;
}

/** An attempt failed and will be retried: back to the queue, keeping the first real reason. */
export async function releaseRun(tx: Executor, tenantId: string, id: string, reason: string): Promise<void> {
  await tx.execute(sql`
    UPDATE custom_analyses SET status = 'queued', heartbeat_at = NULL, run_id = NULL, failure_reason = coalesce(failure_reason, ${reason})
     WHERE tenant_id = ${tenantId} AND id = ${id} AND status = 'processing'`);
}

export type StaleRun = { id: string; tenant_id: string; crashes: number; phase: string | null; failure_reason: string | null };

/** Runs (of every tenant: system scope) that stopped beating `seconds` ago or more. */
export async function staleRuns(tx: Executor, seconds: number): Promise<StaleRun[]> {
  return queryRows<StaleRun>(tx, sql`
    SELECT id, tenant_id, crashes, phase, failure_reason FROM custom_analyses
     WHERE status = 'processing' AND (heartbeat_at IS NULL OR heartbeat_at <= now() - make_interval(secs => ${seconds}))`);
}

/** A crashed run goes back to the queue (its crash counted); false when someone else settled it meanwhile. */
export async function requeueCrashed(tx: Executor, tenantId: string, id: string, seconds: number): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(tx, sql`
    UPDATE custom_analyses SET status = 'queued', crashes = crashes + 1, heartbeat_at = NULL, run_id = NULL
     WHERE tenant_id = ${tenantId} AND id = ${id} AND status = 'processing'
       AND (heartbeat_at IS NULL OR heartbeat_at <= now() - make_interval(secs => ${seconds})) RETURNING id`);
  return rows.length > 0;
}

export async function setProgress(tx: Executor, tenantId: string, id: string, progress: number): Promise<void> {
  await tx.execute(sql`UPDATE custom_analyses SET progress = ${progress} WHERE tenant_id = ${tenantId} AND id = ${id} AND status = 'processing'`);
}

/** Deletes the rows of an analysis with row numbers in [from, to): partial work of an earlier attempt, or a deletion. */
export async function deleteRowsRange(tx: Executor, tenantId: string, id: string, from: number, to: number): Promise<number> {
  const rows = await queryRows<{ n: number }>(tx, sql`
    WITH d AS (DELETE FROM custom_analysis_rows WHERE tenant_id = ${tenantId} AND analysis_id = ${id} AND row_number >= ${from} AND row_number < ${to} RETURNING 1)
    SELECT count(*)::int AS n FROM d`);
  return rows[0]?.n ?? 0;
}

export async function maxRowNumber(tx: Executor, tenantId: string, id: string): Promise<number> {
  const [r] = await queryRows<{ m: number | null }>(tx, sql`SELECT max(row_number) AS m FROM custom_analysis_rows WHERE tenant_id = ${tenantId} AND analysis_id = ${id}`);
  return r?.m ?? 0;
}

/** warned: rows with at least one warning (issue 28). */
export type BatchSummary = { within: number; outside: number; errors: number; unrecognized: number; warned: number; area: number };

export type ClassifyParams = {
  analysisId: string;
  /** The analysis was given every operational area the tenant has: no per-candidate check of the choice is needed. */
  allAreas: boolean;
  minimumFarmSize: number;
  requireRecognition: boolean;
  threshold: number;
};

/**
 * Classifies and stores one batch of staged rows in one statement: builds each polygon, checks it (ST_IsValid, the reason
 * when not), measures it on the spheroid, finds the chosen area that covers it (else the covered fraction), and tests it
 * against the tenant's registry (IoU). Invalid polygons are never passed to an overlay (PGlite would swallow the error).
 */
/**
 * The batch's totals, and what the overlap step needs: each probe row (a polygon, no exact twin earlier) with its
 * bounding box (rn, x0, y0, x1, y1 aligned), and each stored twin with the row it repeats (tn, td aligned). Null when
 * the batch has none.
 */
export type ClassifyResult = BatchSummary & {
  rn: number[] | null;
  x0: number[] | null;
  y0: number[] | null;
  x1: number[] | null;
  y1: number[] | null;
  tn: number[] | null;
  td: number[] | null;
};

export async function classifyBatch(tx: Executor, tenantId: string, p: ClassifyParams, batchJson: string): Promise<ClassifyResult> {
  const [r] = await queryRows<ClassifyResult>(tx, classifySql(tenantId, p, batchJson));
  return r ?? { within: 0, outside: 0, errors: 0, unrecognized: 0, warned: 0, area: 0, rn: null, x0: null, y0: null, x1: null, y1: null, tn: null, td: null };
}

/**
 * Restricts candidate areas (alias a) to the analysis's chosen ones. When it was given all of the tenant's areas, the
 * tenant condition already says it. Otherwise one primary-key probe per candidate: a constant uuid[] of hundreds of ids
 * cost ~7 ms of planning per statement (the planner estimates `= ANY` element by element), more than the probes.
 */
function chosenArea(p: ClassifyParams): SQL {
  return p.allAreas
    ? sql``
    : sql`AND EXISTS (SELECT 1 FROM custom_analysis_areas ca WHERE ca.analysis_id = ${p.analysisId} AND ca.operational_area_id = a.id)`;
}

/** The classify statement itself (the benchmark reads its EXPLAIN ANALYZE). */
export function classifySql(tenantId: string, p: ClassifyParams, batchJson: string): SQL {
  const chosen = chosenArea(p);
  // MATERIALIZED: each expensive value (the geometry, its validity, its geodesic area, the covering area) is computed
  // once per row; an inlined CTE would repeat the expression wherever the column is used.
  return sql`
    WITH g AS MATERIALIZED (
      -- wkb: hex EWKB (staged since 0006); wkt: staged files written before it, still queued after an upgrade.
      -- w: a polygon staged across the antimeridian (longitudes up to 360), split at 180 here (issue 13). pt: a point.
      -- wa: the row's warning codes (issue 28), absent when none.
      SELECT s.n, s.name, s.oa, s.rd, s.d, coalesce(s.errs, '[]'::jsonb) AS errs, s.pt IS TRUE AS pt, coalesce(s.wa, '{}'::text[]) AS wa,
             CASE WHEN s.w THEN ST_WrapX(s.wkb::geometry, 180, -360) ELSE coalesce(s.wkb::geometry, ST_GeomFromText(s.wkt, 4326)) END AS geom
        FROM jsonb_to_recordset(${batchJson}::jsonb) AS s(n int, name text, wkb text, wkt text, oa uuid, rd jsonb, errs jsonb, d int, w boolean, pt boolean, wa text[])
    ), tw AS MATERIALIZED (
      -- Exact twins whose first copy is stored already (an earlier batch): same polygon and declared area, so the same
      -- verdict. Copied instead of computed: a file repeating one polygon costs a primary-key probe per row. LATERAL
      -- with LIMIT 1 keeps it a probe: a plain join was planned as a hash join over every stored row of the analysis,
      -- once per batch (quadratic: 75,000 twins took 270 s instead of 45).
      -- The twin's own warnings: the same polygon may have been written closed in one row and open in the other.
      SELECT g.n, g.name, g.rd, g.d, g.wa, r.geom, r.area_sqm, r.errors, r.category, r.operational_area_id, r.covered_fraction, r.is_unrecognized
        FROM g CROSS JOIN LATERAL (
               SELECT r.geom, r.area_sqm, r.errors, r.category, r.operational_area_id, r.covered_fraction, r.is_unrecognized
                 FROM custom_analysis_rows r
                WHERE r.analysis_id = ${p.analysisId} AND r.row_number = g.d AND r.tenant_id = ${tenantId}
                LIMIT 1) r
       WHERE g.d IS NOT NULL
    ), v AS MATERIALIZED (
      SELECT g.*, ST_IsValid(g.geom) AS ok FROM g WHERE NOT EXISTS (SELECT 1 FROM tw WHERE tw.n = g.n)
    ), m AS MATERIALIZED (
      SELECT v.*,
             CASE WHEN v.ok THEN ST_Area(v.geom::geography) END AS area,
             CASE WHEN v.ok = false THEN ST_IsValidReason(v.geom) END AS reason
        FROM v
    ), k AS MATERIALIZED (
      SELECT m.*,
             m.errs
             || CASE WHEN m.ok = false THEN jsonb_build_array(jsonb_build_object('field', 'farm_coordinates', 'code', 'invalid_polygon',
                  'message', 'farm_coordinates: the polygon is invalid: ' || m.reason)) ELSE '[]'::jsonb END
             || CASE WHEN m.ok AND m.area < ${p.minimumFarmSize} AND NOT m.pt THEN jsonb_build_array(jsonb_build_object('field', 'farm_coordinates', 'code', 'below_minimum_size',
                  'message', 'farm_coordinates: the farm measures ' || round(m.area::numeric, 2) || ' sqm, below the minimum farm size of ' || ${p.minimumFarmSize}::float8 || ' sqm')) ELSE '[]'::jsonb END
             AS all_errs
        FROM m
    ), c AS MATERIALIZED (
      SELECT k.*, (jsonb_array_length(k.all_errs) = 0) AS good, w.id AS within_id
        FROM k
        LEFT JOIN LATERAL (
          SELECT a.id FROM operational_areas a
           WHERE jsonb_array_length(k.all_errs) = 0 AND a.geom && k.geom AND a.tenant_id = ${tenantId} ${chosen} AND ST_Covers(a.geom, k.geom)
           ORDER BY (a.id = k.oa) DESC, a.name, a.id LIMIT 1) w ON true
    ), ins AS (
      INSERT INTO custom_analysis_rows (analysis_id, row_number, tenant_id, farm_name, geom, area_sqm, row_data, errors, warnings, category,
                                        operational_area_id, covered_fraction, is_unrecognized, dup_of)
      SELECT ${p.analysisId}, c.n, ${tenantId}, c.name,
             CASE WHEN c.good THEN c.geom END,
             c.area,
             coalesce(c.rd, '{}'::jsonb),
             CASE WHEN c.good THEN NULL ELSE c.all_errs END,
             c.wa,
             CASE WHEN NOT c.good THEN 'error' WHEN c.within_id IS NOT NULL THEN 'within' ELSE 'outside' END,
             c.within_id,
             CASE WHEN NOT c.good THEN NULL WHEN c.within_id IS NOT NULL THEN 1.0 WHEN c.pt THEN 0.0 ELSE
               -- A ratio of areas: planar is as good as geodesic at farm scale, and several times cheaper. The union of the
               -- farm's pieces in each area equals the farm cut by the union of the areas, without uniting whole areas;
               -- one piece (the usual case) needs no union at all.
               least(1.0, coalesce((SELECT CASE WHEN count(*) = 1 THEN ST_Area((array_agg(ST_Intersection(a.geom, c.geom)))[1])
                                                ELSE ST_Area(ST_Union(array_agg(ST_Intersection(a.geom, c.geom)))) END
                                      FROM operational_areas a
                                     WHERE a.geom && c.geom AND a.tenant_id = ${tenantId} ${chosen} AND ST_Intersects(a.geom, c.geom)), 0) / ST_Area(c.geom))
             END,
             c.good AND ${p.requireRecognition} AND NOT EXISTS (
               SELECT 1 FROM farms f
                WHERE f.geom && c.geom AND f.tenant_id = ${tenantId} AND ST_Intersects(f.geom, c.geom)
                  -- IoU is a ratio of areas: planar in degrees equals geodesic to ~1e-5 at farm scale (the local map
                  -- from degrees to metres is affine), and skips a spheroid area per candidate (6 % of classify on PGlite).
                  -- A point has no area: it is recognized when a registry farm covers it (issue 13).
                  AND (c.pt OR (SELECT i / nullif(ST_Area(f.geom) + ST_Area(c.geom) - i, 0)
                         FROM (SELECT ST_Area(ST_Intersection(f.geom, c.geom)) AS i) x) >= ${p.threshold})),
             -- An exact twin of an earlier good row has the same verdict; it stays out of the overlap probe index.
             CASE WHEN c.good THEN c.d END
        FROM c
      RETURNING category, area_sqm, is_unrecognized, row_number AS n, dup_of AS d, warnings <> '{}' AS wr,
                CASE WHEN geom IS NOT NULL AND dup_of IS NULL THEN box2d(geom) END AS bx
    ), ins_twins AS (
      INSERT INTO custom_analysis_rows (analysis_id, row_number, tenant_id, farm_name, geom, area_sqm, row_data, errors, warnings, category,
                                        operational_area_id, covered_fraction, is_unrecognized, dup_of)
      SELECT ${p.analysisId}, tw.n, ${tenantId}, tw.name, tw.geom, tw.area_sqm, coalesce(tw.rd, '{}'::jsonb), tw.errors, tw.wa, tw.category,
             tw.operational_area_id, tw.covered_fraction, tw.is_unrecognized, CASE WHEN tw.geom IS NOT NULL THEN tw.d END
        FROM tw
      RETURNING category, area_sqm, is_unrecognized, row_number AS n, dup_of AS d, warnings <> '{}' AS wr, NULL::box2d AS bx
    )
    -- The aggregates of one Agg node see the rows in one order: the arrays stay aligned without ORDER BY.
    SELECT count(*) FILTER (WHERE category = 'within')::int AS within,
           count(*) FILTER (WHERE category = 'outside')::int AS outside,
           count(*) FILTER (WHERE category = 'error')::int AS errors,
           count(*) FILTER (WHERE is_unrecognized)::int AS unrecognized,
           count(*) FILTER (WHERE wr)::int AS warned,
           coalesce(sum(area_sqm) FILTER (WHERE category <> 'error'), 0)::float8 AS area,
           array_agg(n) FILTER (WHERE bx IS NOT NULL) AS rn,
           array_agg(ST_XMin(bx)) FILTER (WHERE bx IS NOT NULL) AS x0,
           array_agg(ST_YMin(bx)) FILTER (WHERE bx IS NOT NULL) AS y0,
           array_agg(ST_XMax(bx)) FILTER (WHERE bx IS NOT NULL) AS x1,
           array_agg(ST_YMax(bx)) FILTER (WHERE bx IS NOT NULL) AS y1,
           array_agg(n) FILTER (WHERE d IS NOT NULL) AS tn,
           array_agg(d) FILTER (WHERE d IS NOT NULL) AS td
      FROM (SELECT * FROM ins UNION ALL SELECT * FROM ins_twins) x`;
}

// ---------- overlap step (see analyses.overlap.ts for the algorithm) ----------
// Candidates are found in the run's memory (analyses.box-index.ts); these statements test given pairs. Each row is
// found by a LATERAL probe of the primary key with LIMIT 1: a plain join of a long list of pairs could be planned as a
// hash join over every row of the analysis, once per statement.

const intArray = (xs: readonly number[]) => `{${xs.join(',')}}`;

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
export async function overlapPairsOf(tx: Executor, tenantId: string, id: string, pairs: ReadonlyArray<readonly [number, number]>, t: Tolerance): Promise<Array<{ a: number; b: number }>> {
  if (pairs.length === 0) return [];
  return queryRows(tx, sql`
    WITH hits AS MATERIALIZED (
      SELECT p.a, p.b, m.sqm, m.share_a, m.share_b, m.iou, m.sliver
        FROM unnest(${intArray(pairs.map((p) => p[0]))}::int[], ${intArray(pairs.map((p) => p[1]))}::int[]) AS p(a, b)
        CROSS JOIN LATERAL (${rowGeomArea(tenantId, id, sql`p.a`)}) ra
        CROSS JOIN LATERAL (${rowGeomArea(tenantId, id, sql`p.b`)}) rb
        ${pairMeasures(t)}
       WHERE ST_Relate(ra.geom, rb.geom, '2********')
    ), ${keepPairs(tenantId, id)}`);
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
  return queryRows(tx, sql`
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
    ), ${keepPairs(tenantId, id)}`);
}

/** Removes the pairs an earlier attempt kept (a retry measures them again). */
export async function deleteOverlapPairs(tx: Executor, tenantId: string, id: string): Promise<void> {
  await tx.execute(sql`DELETE FROM custom_analysis_overlaps WHERE tenant_id = ${tenantId} AND analysis_id = ${id}`);
}

export type RowOverlap = { n: number; other: number; area_sqm: number; share_this: number; share_other: number; iou: number; is_sliver: boolean };

/** Each given row's overlap pairs from its side (grouped ones first, then by area), at most `perRow` a row: a page's details. */
export async function overlapsOfRows(tx: Executor, tenantId: string, id: string, rows: readonly number[], perRow: number): Promise<RowOverlap[]> {
  if (rows.length === 0) return [];
  return queryRows<RowOverlap>(tx, sql`
    SELECT x.n, o.* FROM unnest(${intArray(rows)}::int[]) AS x(n)
     CROSS JOIN LATERAL (
       SELECT * FROM (
         SELECT o.b AS other, o.area_sqm, o.share_a AS share_this, o.share_b AS share_other, o.iou, o.is_sliver FROM custom_analysis_overlaps o
          WHERE o.analysis_id = ${id} AND o.a = x.n AND o.tenant_id = ${tenantId}
         UNION ALL
         SELECT o.a, o.area_sqm, o.share_b, o.share_a, o.iou, o.is_sliver FROM custom_analysis_overlaps o
          WHERE o.analysis_id = ${id} AND o.b = x.n AND o.tenant_id = ${tenantId}
       ) p ORDER BY p.is_sliver, p.area_sqm DESC, p.other LIMIT ${perRow}) o`);
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

/** The totals of an analysis from its stored rows (after rows were turned into errors by the overlap step). */
export async function rowTotals(tx: Executor, tenantId: string, id: string): Promise<BatchSummary> {
  const [r] = await queryRows<BatchSummary>(tx, sql`
    SELECT count(*) FILTER (WHERE category = 'within')::int AS within,
           count(*) FILTER (WHERE category = 'outside')::int AS outside,
           count(*) FILTER (WHERE category = 'error')::int AS errors,
           count(*) FILTER (WHERE is_unrecognized)::int AS unrecognized,
           count(*) FILTER (WHERE warnings <> '{}')::int AS warned,
           coalesce(sum(area_sqm) FILTER (WHERE category <> 'error'), 0)::float8 AS area
      FROM custom_analysis_rows WHERE tenant_id = ${tenantId} AND analysis_id = ${id}`);
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
): Promise<void> {
  await tx.execute(sql`
    UPDATE custom_analyses SET status = 'completed', progress = 100, completed_at = now(), total_uploaded_data_count = ${s.total},
           within_count = ${s.within}, outside_count = ${s.outside}, error_count = ${s.errors}, overlapping_count = ${s.overlapping},
           unrecognized_count = ${s.unrecognized}, warning_count = ${s.warned}, total_area = ${s.area}, failure_reason = NULL, heartbeat_at = NULL, phase = NULL
     WHERE tenant_id = ${tenantId} AND id = ${id} AND run_id = ${runId}`);
}

/** Marks the analysis failed; the first real reason recorded by an earlier attempt wins over this one. */
export async function failAnalysis(tx: Executor, tenantId: string, id: string, reason: string, onlyStaleAfter: number | null = null): Promise<void> {
  // onlyStaleAfter (seconds): a dead-lettered job must not fail an analysis that a newer job runs (or will run) after a requeue.
  const stale = onlyStaleAfter !== null
    ? sql`AND status = 'processing' AND (heartbeat_at IS NULL OR heartbeat_at < now() - make_interval(secs => ${onlyStaleAfter}))`
    : sql``;
  await tx.execute(sql`
    UPDATE custom_analyses SET status = 'failed', failure_reason = coalesce(failure_reason, ${reason}), completed_at = now(), heartbeat_at = NULL,
           within_count = 0, outside_count = 0, overlapping_count = 0, unrecognized_count = 0, error_count = 0, warning_count = 0, total_area = 0
     WHERE tenant_id = ${tenantId} AND id = ${id} AND status NOT IN ('completed', 'failed') ${stale}`);
}

/** The stored source file of an analysis (removed with it). */
export async function deleteSourceFile(tx: Executor, tenantId: string, fileId: string): Promise<string | null> {
  const [r] = await queryRows<{ storage_key: string }>(tx, sql`DELETE FROM files WHERE tenant_id = ${tenantId} AND id = ${fileId} RETURNING storage_key`);
  return r?.storage_key ?? null;
}
