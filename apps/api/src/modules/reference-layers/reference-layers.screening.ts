// Screening (issue 29): per registry farm and applicable reference layer, the geodesic overlap area (m²) and its share
// of the farm. The overlap is the union of the farm's intersections with the layer's stored pieces (subdivided, so a
// farm crossing several pieces of one feature, or features that overlap each other, counts each m² once), measured on
// the spheroid (geography). Each statement reads one version of each layer (the one in use when it runs), so a farm's
// figure is always from one complete version. Run at capture, re-walk, retain and bulk upload (in the writing
// transaction), and for every farm when a layer version is put in use (batches of BATCH_FARMS, one transaction each).
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, uuidArray, withScope, type Executor } from '../../db/client.js';
import type { Deps } from '../../context.js';
import type { ReferenceLayerKind, ScreeningFigure } from '@farmland/contracts';
import { forRedoableWrite, withoutJit } from './reference-layers.queries.js';

/**
 * The overlays run on a fixed precision grid of 1e-12 degrees (~0.1 µm): GEOS's snap-rounding, which never needs its
 * floating-point overlay's fallback. That fallback works by throwing and catching inside GEOS, and PGlite's WASM build
 * cannot catch: the union of a plot's intersections with adjacent pieces (subdivision cuts) or overlapping features
 * then ended the whole statement with an empty result and no error (seen on 5 of 150 random plots; the same SQL on
 * PostgreSQL answered). The grid moves an area by about its perimeter times 1e-7 m: under 1e-9 of a plot-sized overlap, but
 * more than 1e-6 of a sliver under a square metre. So analysis rows (analyses.layers.ts) measure with GEOS's floating
 * overlay first ({ grid: false }, exactly PostgreSQL's figure) and use the grid only for a row whose floating overlay the
 * engine dropped (docs/decisions/0076-analysis-reference-layers.md).
 */
const OVERLAY_GRID = '1e-12';

/**
 * The one overlap measure of a screening, as a subquery giving `sqm` (use it as `CROSS JOIN LATERAL ${overlapOf(...)} o`):
 * the geodesic area of the union of a geometry's intersections with one version of a layer's stored pieces. Registry
 * farms and analysis rows (modules/analyses/analyses.run.queries.ts) are measured by this same SQL. The geometry must be
 * valid (PGlite's PostGIS returns an empty overlay for an invalid one); both farms and analysed rows are checked before.
 *
 * Two things keep it fast on a layer of a million pieces (bench:screening, docs/decisions/0073):
 * - The pieces are found by the spatial index alone: the `OFFSET 0` subquery keeps the layer and version conditions
 *   out of the scan. Without it the planner, whose statistics never know a version just loaded (no ANALYZE between a
 *   load and its screening), ANDed the GiST probe with the (layer_id, version) index, reading every piece of the
 *   version for each farm: 18 ms a farm with 100k pieces, growing with the layer. The pieces in the box of other
 *   layers and versions are few and are filtered out after.
 * - A geometry meeting one piece (most farms) is measured as its intersection with it, without the union (the union of
 *   one polygon is that polygon: the same area); with two or more, the union as before.
 */
export const overlapOf = (geom: SQL, layerId: SQL, version: SQL, opts: { grid: boolean } = { grid: true }): SQL => {
  const grid = opts.grid ? sql`, ${sql.raw(OVERLAY_GRID)}` : sql``;
  const one = sql`(array_agg(c.geom))[1]`;
  // One aggregate level (not flattened into the caller, so `sqm` is computed once however often it is used).
  // Two shortcuts skip the overlay (docs/decisions/0098-screening-at-scale-2.md), each behind a bounding-box test that rules
  // most pairs out for nothing: a geometry inside a piece overlaps it by its own area; a geometry meeting one piece
  // that it covers overlaps by the piece's area. ST_Covers(geometry, piece) has the repeated geometry first, so
  // PostGIS prepares it once for all its pieces.
  return sql`(
              SELECT CASE
                       WHEN count(*) = 0 THEN 0
                       WHEN bool_or(c.geom ~ ${geom} AND ST_Covers(c.geom, ${geom})) THEN ST_Area(${geom}::geography)
                       WHEN count(*) = 1 THEN
                         CASE WHEN ${geom} ~ ${one} AND ST_Covers(${geom}, ${one}) THEN ST_Area(${one}::geography)
                              ELSE coalesce(ST_Area(ST_CollectionExtract(ST_Intersection(${one}, ${geom}${grid}), 3)::geography), 0)
                         END
                       ELSE coalesce((SELECT ST_Area(ST_CollectionExtract(ST_Union(ST_Intersection(x.g, ${geom}${grid})${grid}), 3)::geography) FROM unnest(array_agg(c.geom)) AS x(g)), 0)
                     END AS sqm
                FROM (SELECT p.layer_id, p.version, p.geom FROM reference_layer_features p WHERE p.geom && ${geom} OFFSET 0) c
               WHERE c.layer_id = ${layerId} AND c.version = ${version} AND ST_Intersects(c.geom, ${geom})
            )`;
};

/** The most farms per background screening transaction: a 100k-farm tenant is never screened in one transaction. */
export const BATCH_FARMS = 500;
/** The fewest (a batch's fixed cost, a few statements, is then a small share of it). */
export const MIN_BATCH_FARMS = 10;

/**
 * The time a background screening transaction aims at, by engine. Embedded, the one PGlite connection is held for the
 * whole transaction, so every request waits for the batch under way: batches of ~80 ms (and a turn of the event loop
 * between them, so the requests that queued meanwhile get the connection) keep requests answered within 200 ms
 * (issue 29). On PostgreSQL requests have their own connections; longer batches cost fewer round trips.
 */
export const BATCH_TARGET_MS = { pglite: 80, postgres: 1000 } as const;

/** The next batch's size from the last one's: scaled towards the target time, at most doubling, within min..max. */
export function nextBatchSize(
  size: number,
  ms: number,
  targetMs: number,
  bounds: { min: number; max: number } = { min: MIN_BATCH_FARMS, max: BATCH_FARMS },
): number {
  const scaled = Math.round((size * targetMs) / Math.max(1, ms));
  return Math.max(bounds.min, Math.min(bounds.max, size * 2, scaled));
}

/**
 * Screens the given farms of one tenant against every layer in use that applies to the tenant (the provider's and its
 * own), or only against layerId. Upserts one row per farm and layer. Returns the rows written.
 */
export async function screenFarms(tx: Executor, tenantId: string, farmIds: readonly string[], layerId?: string): Promise<number> {
  if (farmIds.length === 0) return 0;
  await withoutJit(tx);
  const rows = await queryRows<{ n: number }>(
    tx,
    sql`WITH written AS (
          INSERT INTO farm_screenings (tenant_id, farm_id, layer_id, layer_version, overlap_sqm, share, computed_at)
          SELECT f.tenant_id, f.id, l.id, l.version, o.sqm, CASE WHEN fa.a > 0 THEN least(1, o.sqm / fa.a) ELSE 0 END, now()
            FROM farms f
            CROSS JOIN LATERAL (SELECT ST_Area(f.geom::geography) AS a) fa
            JOIN reference_layers l ON l.version > 0 AND (l.tenant_id IS NULL OR l.tenant_id = f.tenant_id) ${layerId ? sql`AND l.id = ${layerId}` : sql``}
            CROSS JOIN LATERAL ${overlapOf(sql`f.geom`, sql`l.id`, sql`l.version`)} o
           WHERE f.tenant_id = ${tenantId} AND f.id = ANY(${uuidArray(farmIds)})
          ON CONFLICT (farm_id, layer_id) DO UPDATE
             SET layer_version = EXCLUDED.layer_version, overlap_sqm = EXCLUDED.overlap_sqm, share = EXCLUDED.share, computed_at = EXCLUDED.computed_at
           -- A statement that began before a replacement's swap (PostgreSQL: another worker) never overwrites a figure
           -- the newer version's screening already wrote.
           WHERE farm_screenings.layer_version <= EXCLUDED.layer_version
          RETURNING 1)
        SELECT count(*)::int AS n FROM written`,
  );
  return rows[0]?.n ?? 0;
}

type FigureRow = Omit<ScreeningFigure, 'computed_at'> & { computed_at: Date | string };

/** A farm's figures, with each layer's name and kind (layers in use only). */
export async function farmFigures(tx: Executor, tenantId: string, farmId: string): Promise<ScreeningFigure[]> {
  const rows = await queryRows<FigureRow>(
    tx,
    sql`SELECT s.layer_id, l.name AS layer_name, l.kind::text AS kind, CASE WHEN l.tenant_id IS NULL THEN 'provider' ELSE 'tenant' END AS owner,
               s.layer_version, s.overlap_sqm, s.share, s.computed_at
          FROM farm_screenings s JOIN reference_layers l ON l.id = s.layer_id
         WHERE s.tenant_id = ${tenantId} AND s.farm_id = ${farmId} AND l.version > 0
         ORDER BY l.kind, l.name`,
  );
  return rows.map((r) => ({ ...r, overlap_sqm: Number(r.overlap_sqm), share: Number(r.share), computed_at: new Date(r.computed_at).toISOString() }));
}

/** Layers in use that apply to the tenant: the provider's and its own. */
export async function applicableLayers(tx: Executor, tenantId: string): Promise<Array<{ id: string; kind: string }>> {
  return queryRows(
    tx,
    sql`SELECT id, kind::text AS kind FROM reference_layers WHERE version > 0 AND (tenant_id IS NULL OR tenant_id = ${tenantId}) ORDER BY id`,
  );
}

/**
 * Batches screened at once after the first (PostgreSQL: each lane its own connection and transaction, so the database
 * uses more than one core; bench:screening, docs/decisions/0098-screening-at-scale-2.md). Embedded there is one connection.
 */
export const SCREEN_LANES = { pglite: 1, postgres: 2 } as const;

/**
 * Screens every farm the layer applies to (one tenant's, or every tenant's for a provider layer) against the layer's
 * version in use, a batch of farms a transaction, in farm id order. A batch's size follows the time the last one took
 * (BATCH_TARGET_MS; opts.batchFarms fixes it instead), and the event loop turns between batches. The first batch runs
 * alone (it sizes the next ones); then up to SCREEN_LANES batches run at once, each claiming the next farms in id
 * order. Stops early when the layer is replaced or removed meanwhile (each batch's transaction checks the version in
 * use; the newer version's own screening covers the farms). onBatch gets the farms done and the total.
 */
export async function screenLayerEverywhere(
  deps: Pick<Deps, 'db' | 'database'>,
  layer: { id: string; tenantId: string | null; version: number },
  onBatch: (done: number, total: number) => Promise<void>,
  opts: { batchFarms?: number; lanes?: number } = {},
): Promise<{ farms: number; stopped: boolean }> {
  const targetMs = BATCH_TARGET_MS[deps.database.kind];
  const lanes = Math.max(1, opts.lanes ?? SCREEN_LANES[deps.database.kind]);
  let batchSize = opts.batchFarms ?? Math.min(BATCH_FARMS, 5 * MIN_BATCH_FARMS);
  const scope = layer.tenantId ? ({ kind: 'tenant', tenantId: layer.tenantId } as const) : ({ kind: 'system' } as const);
  const tenantFilter = layer.tenantId ? sql`WHERE tenant_id = ${layer.tenantId}` : sql``;
  const [count] = await withScope(deps.db, scope, (tx) => queryRows<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM farms ${tenantFilter}`));
  const total = count?.n ?? 0;
  type Batch = Array<{ id: string; tenant_id: string }>;
  const state = { done: 0, after: null as string | null, stopped: false, finished: false };
  // Claims are made one at a time (a promise chain), so lanes never take the same farms.
  let claims: Promise<unknown> = Promise.resolve();
  const claim = (): Promise<Batch | null> => {
    const next = claims.then(async (): Promise<Batch | null> => {
      if (state.stopped || state.finished) return null;
      const size = batchSize;
      const cursor = state.after;
      const batch = await withScope(deps.db, scope, (tx) =>
        queryRows<{ id: string; tenant_id: string }>(
          tx,
          sql`SELECT id, tenant_id FROM farms
               WHERE ${layer.tenantId ? sql`tenant_id = ${layer.tenantId}` : sql`true`} ${cursor ? sql`AND id > ${cursor}` : sql``}
               ORDER BY id LIMIT ${size}`,
        ),
      );
      if (batch.length < size) state.finished = true;
      if (batch.length === 0) return null;
      state.after = batch[batch.length - 1]!.id;
      return batch;
    });
    claims = next.catch(() => undefined);
    return next;
  };
  // One batch in one transaction: false when the layer's version in use is no longer this one.
  const screen = async (batch: Batch): Promise<boolean> => {
    const started = performance.now();
    const ok = await withScope(deps.db, scope, async (tx) => {
      const [current] = await queryRows<{ version: number }>(tx, sql`SELECT version FROM reference_layers WHERE id = ${layer.id}`);
      if (!current || current.version !== layer.version) return false;
      await forRedoableWrite(tx);
      const byTenant = new Map<string, string[]>();
      for (const f of batch) byTenant.set(f.tenant_id, [...(byTenant.get(f.tenant_id) ?? []), f.id]);
      for (const [tenantId, ids] of byTenant) await screenFarms(tx, tenantId, ids, layer.id);
      return true;
    });
    if (!ok) {
      state.stopped = true;
      return false;
    }
    state.done += batch.length;
    if (opts.batchFarms === undefined) batchSize = nextBatchSize(batch.length, performance.now() - started, targetMs);
    await onBatch(state.done, total);
    // Requests that queued behind this batch (embedded: for the one connection) go first.
    await new Promise((resolve) => setImmediate(resolve));
    return true;
  };
  const lane = async (): Promise<void> => {
    try {
      for (let batch = await claim(); batch && !state.stopped; batch = await claim()) if (!(await screen(batch))) return;
    } catch (err) {
      state.stopped = true; // the other lanes end after their batch under way; the job's retry screens again
      throw err;
    }
  };
  const first = await claim();
  if (first && (await screen(first))) await Promise.all(Array.from({ length: lanes }, lane));
  return { farms: state.done, stopped: state.stopped };
}

/** A layer's version in use, with its name and kind then. */
export type LayerInUse = { id: string; name: string; kind: ReferenceLayerKind; owner: 'provider' | 'tenant'; version: number };

/**
 * Of the given layer ids, those the tenant may screen against: the provider's and its own, with a complete version in
 * use (version > 0; a replacement still loading leaves the earlier version in use). Others (missing, another tenant's,
 * never loaded) are left out. Used to check an analysis's choice and to pin the versions at its run's start.
 */
export async function layersInUse(tx: Executor, tenantId: string, ids: readonly string[]): Promise<LayerInUse[]> {
  if (ids.length === 0) return [];
  return queryRows<LayerInUse>(
    tx,
    sql`SELECT id, name, kind::text AS kind, CASE WHEN tenant_id IS NULL THEN 'provider' ELSE 'tenant' END AS owner, version FROM reference_layers
         WHERE id = ANY(${uuidArray(ids)}) AND version > 0 AND (tenant_id IS NULL OR tenant_id = ${tenantId})`,
  );
}
