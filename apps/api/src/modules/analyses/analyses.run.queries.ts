// A run's statements: claim and heartbeat (a run that stops beating is taken for dead), progress, row ranges, and the
// classify statement of one batch of staged rows. Each is bounded to a batch or a range, so that none holds PGlite's
// one connection for long. The tenant id is always the first argument.
import { sql, type SQL } from 'drizzle-orm';
import { jsonb, queryRows, type Executor } from '../../db/client.js';
import type { ReferenceLayerKind } from '@farmland/contracts';
import { overlapOf } from '../reference-layers/reference-layers.screening.js';
import { AREA_MISMATCH_MIN_SQM, AREA_MISMATCH_SHARE } from './analyses.declared.js';

// ---------- pipeline ----------

/** The default of ANALYSIS_STALE_RUN_SECONDS: seconds without a heartbeat after which a run is taken for dead (its process ended). */
export const STALE_RUN_SECONDS = 45;

/**
 * Claims the analysis for one run: only a queued analysis, or one whose last run stopped beating (a crash), can be
 * claimed, and only by one run at a time. The first real failure reason of an earlier attempt is kept.
 */
export async function claimRun(tx: Executor, tenantId: string, id: string, runId: string, staleSeconds: number): Promise<{ attempts: number } | null> {
  const [row] = await queryRows<{ attempts: number }>(
    tx,
    sql`
    UPDATE custom_analyses SET status = 'processing', progress = 0, started_at = now(), attempts = attempts + 1, run_id = ${runId},
           heartbeat_at = now(), phase = 'prepare',
           within_count = 0, outside_count = 0, overlapping_count = 0, unrecognized_count = 0, error_count = 0, warning_count = 0, total_area = 0
     WHERE tenant_id = ${tenantId} AND id = ${id}
       AND (status = 'queued' OR (status = 'processing' AND (heartbeat_at IS NULL OR heartbeat_at < now() - make_interval(secs => ${staleSeconds}))))
    RETURNING attempts`,
  );
  return row ?? null;
}

/** The run's heartbeat (and the step it is in); false when the run no longer holds the analysis. */
export async function beat(tx: Executor, tenantId: string, id: string, runId: string, phase?: string): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`
    UPDATE custom_analyses SET heartbeat_at = now(), phase = coalesce(${phase ?? null}, phase)
     WHERE tenant_id = ${tenantId} AND id = ${id} AND run_id = ${runId} AND status = 'processing' RETURNING id`,
  );
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
  return queryRows<StaleRun>(
    tx,
    sql`
    SELECT id, tenant_id, crashes, phase, failure_reason FROM custom_analyses
     WHERE status = 'processing' AND (heartbeat_at IS NULL OR heartbeat_at <= now() - make_interval(secs => ${seconds}))`,
  );
}

/** A crashed run goes back to the queue (its crash counted); false when someone else settled it meanwhile. */
export async function requeueCrashed(tx: Executor, tenantId: string, id: string, seconds: number): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`
    UPDATE custom_analyses SET status = 'queued', crashes = crashes + 1, heartbeat_at = NULL, run_id = NULL
     WHERE tenant_id = ${tenantId} AND id = ${id} AND status = 'processing'
       AND (heartbeat_at IS NULL OR heartbeat_at <= now() - make_interval(secs => ${seconds})) RETURNING id`,
  );
  return rows.length > 0;
}

export async function setProgress(tx: Executor, tenantId: string, id: string, progress: number): Promise<void> {
  await tx.execute(sql`UPDATE custom_analyses SET progress = ${progress} WHERE tenant_id = ${tenantId} AND id = ${id} AND status = 'processing'`);
}

/** Deletes the rows of an analysis with row numbers in [from, to): partial work of an earlier attempt, or a deletion. */
export async function deleteRowsRange(tx: Executor, tenantId: string, id: string, from: number, to: number): Promise<number> {
  const rows = await queryRows<{ n: number }>(
    tx,
    sql`
    WITH d AS (DELETE FROM custom_analysis_rows WHERE tenant_id = ${tenantId} AND analysis_id = ${id} AND row_number >= ${from} AND row_number < ${to} RETURNING 1)
    SELECT count(*)::int AS n FROM d`,
  );
  return rows[0]?.n ?? 0;
}

export async function maxRowNumber(tx: Executor, tenantId: string, id: string): Promise<number> {
  const [r] = await queryRows<{ m: number | null }>(
    tx,
    sql`SELECT max(row_number) AS m FROM custom_analysis_rows WHERE tenant_id = ${tenantId} AND analysis_id = ${id}`,
  );
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
  return p.allAreas ? sql`` : sql`AND EXISTS (SELECT 1 FROM custom_analysis_areas ca WHERE ca.analysis_id = ${p.analysisId} AND ca.operational_area_id = a.id)`;
}

/**
 * Issue 29: `area_mismatch` when a declared area (m², staged as da) differs from the computed geodesic area by more
 * than AREA_MISMATCH_SHARE of it and more than AREA_MISMATCH_MIN_SQM (analyses.declared.ts); '{}' otherwise, or
 * without a declared or computed area.
 */
function areaMismatch(declared: SQL, area: SQL): SQL {
  return sql`(CASE WHEN ${declared} IS NOT NULL AND ${area} IS NOT NULL
                    AND abs(${declared} - ${area}) > greatest(${AREA_MISMATCH_SHARE}::float8 * ${area}, ${AREA_MISMATCH_MIN_SQM}::float8)
               THEN '{area_mismatch}'::text[] ELSE '{}'::text[] END)`;
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
      -- da: the declared area in m² (issue 29), for area_mismatch.
      SELECT s.n, s.name, s.oa, s.rd, s.d, coalesce(s.errs, '[]'::jsonb) AS errs, s.pt IS TRUE AS pt, coalesce(s.wa, '{}'::text[]) AS wa, s.da,
             CASE WHEN s.w THEN ST_WrapX(s.wkb::geometry, 180, -360) ELSE coalesce(s.wkb::geometry, ST_GeomFromText(s.wkt, 4326)) END AS geom
        FROM jsonb_to_recordset(${batchJson}::jsonb) AS s(n int, name text, wkb text, wkt text, oa uuid, rd jsonb, errs jsonb, d int, w boolean, pt boolean, wa text[], da float8)
    ), tw AS MATERIALIZED (
      -- Exact twins whose first copy is stored already (an earlier batch): same polygon and declared area, so the same
      -- verdict. Copied instead of computed: a file repeating one polygon costs a primary-key probe per row. LATERAL
      -- with LIMIT 1 keeps it a probe: a plain join was planned as a hash join over every stored row of the analysis,
      -- once per batch (quadratic: 75,000 twins took 270 s instead of 45).
      -- The twin's own warnings: the same polygon may have been written closed in one row and open in the other.
      SELECT g.n, g.name, g.rd, g.d, g.wa, g.da, r.geom, r.area_sqm, r.errors, r.category, r.operational_area_id, r.covered_fraction, r.is_unrecognized
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
             c.wa || ${areaMismatch(sql`c.da`, sql`c.area`)},
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
      SELECT ${p.analysisId}, tw.n, ${tenantId}, tw.name, tw.geom, tw.area_sqm, coalesce(tw.rd, '{}'::jsonb), tw.errors, tw.wa || ${areaMismatch(sql`tw.da`, sql`tw.area_sqm`)}, tw.category,
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

// ---------- reference layers (issue 29) ----------

/** A chosen layer as pinned at the run's start: version null when it was removed before. */
export type PinnedLayer = {
  id: string;
  name: string;
  kind: ReferenceLayerKind;
  owner: 'provider' | 'tenant';
  version: number | null;
  pinned_at: Date | string | null;
};

/** The analysis's chosen layers, in their order, with the version pinned by the last run's start. */
export async function analysisLayers(tx: Executor, tenantId: string, id: string): Promise<PinnedLayer[]> {
  return queryRows<PinnedLayer>(
    tx,
    sql`
    SELECT layer_id AS id, layer_name AS name, layer_kind AS kind, layer_owner AS owner, layer_version AS version, pinned_at
      FROM custom_analysis_layers WHERE tenant_id = ${tenantId} AND analysis_id = ${id} ORDER BY position`,
  );
}

/** Records the chosen layers at creation (no version yet: the run pins it). */
export async function insertAnalysisLayers(
  tx: Executor,
  tenantId: string,
  id: string,
  layers: ReadonlyArray<{ id: string; name: string; kind: string; owner: string }>,
): Promise<void> {
  if (layers.length === 0) return;
  await tx.execute(sql`
    INSERT INTO custom_analysis_layers (analysis_id, tenant_id, layer_id, position, layer_name, layer_kind, layer_owner)
    SELECT ${id}, ${tenantId}, x.id, x.position, x.name, x.kind, x.owner
      FROM jsonb_to_recordset(${jsonb(layers.map((l, i) => ({ ...l, position: i })))}) AS x(id uuid, position int, name text, kind text, owner text)`);
}

/** Pins each chosen layer's version in use (name and kind as they are now); a layer gone gets version null. */
export async function pinAnalysisLayers(
  tx: Executor,
  tenantId: string,
  id: string,
  inUse: ReadonlyArray<{ id: string; name: string; kind: string; version: number }>,
): Promise<void> {
  await tx.execute(sql`UPDATE custom_analysis_layers SET layer_version = NULL, pinned_at = now() WHERE tenant_id = ${tenantId} AND analysis_id = ${id}`);
  if (inUse.length === 0) return;
  await tx.execute(sql`
    UPDATE custom_analysis_layers c SET layer_version = x.version, layer_name = x.name, layer_kind = x.kind
      FROM jsonb_to_recordset(${jsonb(inUse)}) AS x(id uuid, name text, kind text, version int)
     WHERE c.tenant_id = ${tenantId} AND c.analysis_id = ${id} AND c.layer_id = x.id`);
}

/** Rows of a range with a geometry, with their geodesic area and their overlap (m²) with each pinned layer, in the given order. */
export type RowOverlaps = { n: number; a: number; o: number[] };

/**
 * The figures of the analysed rows in [from, to) against the pinned layers, in one statement: the screening's own
 * overlap SQL (reference-layers.screening.ts overlapOf) on each row's geometry and each layer's pinned version.
 */
export async function rowOverlaps(
  tx: Executor,
  tenantId: string,
  id: string,
  layers: ReadonlyArray<{ id: string; version: number }>,
  from: number,
  to: number,
  grid: boolean,
): Promise<RowOverlaps[] | null> {
  // The closing row (n = 0) is the statement's own receipt: PGlite's PostGIS can end a statement empty without an error
  // (a GEOS exception its WASM build cannot catch), and then it is missing too (null: measure again, smaller).
  const rows = await queryRows<{ n: number; a: number; o: number[] }>(
    tx,
    sql`
    SELECT * FROM (
      SELECT r.row_number AS n, ST_Area(r.geom::geography) AS a, array_agg(o.sqm ORDER BY l.ord) AS o
        FROM custom_analysis_rows r
        CROSS JOIN jsonb_to_recordset(${jsonb(layers.map((l, i) => ({ id: l.id, version: l.version, ord: i })))}) AS l(id uuid, version int, ord int)
        CROSS JOIN LATERAL ${overlapOf(sql`r.geom`, sql`l.id`, sql`l.version`, { grid })} o
       WHERE r.tenant_id = ${tenantId} AND r.analysis_id = ${id} AND r.row_number >= ${from} AND r.row_number < ${to}
         AND r.geom IS NOT NULL AND r.category <> 'error'
       GROUP BY r.row_number, r.geom) x
    UNION ALL SELECT 0, 0, '{}'::float8[]`,
  );
  if (!rows.some((r) => r.n === 0)) return null;
  return rows.filter((r) => r.n !== 0).map((r) => ({ n: r.n, a: Number(r.a), o: r.o.map(Number) }));
}

/** A row's stored verdict: its level, and {r: reasons, o: overlap m² per pinned layer, s: share per pinned layer}. */
export type StoredRisk = { n: number; level: string; risk: { r: unknown[]; o: number[]; s: number[] } };

/** Writes the verdicts of rows in [lo, hi] in one statement (a dense jsonb array indexed by row number, like setOverlapGroups). */
export async function setRowRisks(tx: Executor, tenantId: string, id: string, risks: readonly StoredRisk[]): Promise<void> {
  if (risks.length === 0) return;
  let lo = Infinity;
  let hi = -Infinity;
  for (const x of risks) {
    lo = Math.min(lo, x.n);
    hi = Math.max(hi, x.n);
  }
  const dense: Array<[string, StoredRisk['risk']] | null> = new Array<[string, StoredRisk['risk']] | null>(hi - lo + 1).fill(null);
  for (const x of risks) dense[x.n - lo] = [x.level, x.risk];
  await tx.execute(sql`
    WITH v AS (SELECT ${JSON.stringify(dense)}::jsonb AS d)
    UPDATE custom_analysis_rows r SET risk_level = v.d -> (r.row_number - ${lo}::int) ->> 0, risk = v.d -> (r.row_number - ${lo}::int) -> 1
      FROM v
     WHERE r.tenant_id = ${tenantId} AND r.analysis_id = ${id} AND r.row_number BETWEEN ${lo}::int AND ${hi}::int
       AND jsonb_typeof(v.d -> (r.row_number - ${lo}::int)) = 'array'`);
}

/** The rows of [from, to) with a geometry, without figures (every chosen layer is gone: each row is judged "not screened"). */
export async function rowsWithGeometry(tx: Executor, tenantId: string, id: string, from: number, to: number): Promise<RowOverlaps[]> {
  const rows = await queryRows<{ n: number }>(
    tx,
    sql`
    SELECT r.row_number AS n FROM custom_analysis_rows r
     WHERE r.tenant_id = ${tenantId} AND r.analysis_id = ${id} AND r.row_number >= ${from} AND r.row_number < ${to}
       AND r.geom IS NOT NULL AND r.category <> 'error'`,
  );
  return rows.map((r) => ({ n: r.n, a: 0, o: [] }));
}

export async function hasLayers(tx: Executor, tenantId: string, id: string): Promise<boolean> {
  const rows = await queryRows<{ x: number }>(tx, sql`SELECT 1 AS x FROM custom_analysis_layers WHERE tenant_id = ${tenantId} AND analysis_id = ${id} LIMIT 1`);
  return rows.length > 0;
}
