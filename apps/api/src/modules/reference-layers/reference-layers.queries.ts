// All SQL of reference layers (issue 29): the layer rows, the staged load of a version's features (repaired, subdivided),
// the swap that puts a complete version in use, and removal. Screening SQL is in reference-layers.screening.ts.
import { sql } from 'drizzle-orm';
import { jsonb, queryRows, type Executor } from '../../db/client.js';
import type { ReferenceLayerKind } from '@farmland/contracts';

/** Vertices per stored piece (ST_Subdivide): small pieces keep each index probe and intersection cheap. */
export const SUBDIVIDE_VERTICES = 256;

export type LayerRow = {
  id: string;
  tenant_id: string | null;
  name: string;
  kind: ReferenceLayerKind;
  reference_date: string;
  source: string;
  licence: string;
  status: 'queued' | 'loading' | 'screening' | 'ready' | 'failed';
  progress: number;
  features_loaded: number;
  version: number;
  loading_version: number | null;
  feature_count: number;
  piece_count: number;
  repaired_count: number;
  filename: string | null;
  file_key: string | null;
  name_field: string | null;
  pending_details: LayerDetails | null;
  error: string | null;
  error_feature: number | null;
  created_at: Date | string;
  updated_at: Date | string;
};

export type LayerDetails = { name?: string; kind?: ReferenceLayerKind; reference_date?: string; source?: string; licence?: string; name_field?: string | null };

const COLUMNS = sql`id, tenant_id, name, kind::text AS kind, reference_date::text AS reference_date, source, licence, status, progress, features_loaded,
  version, loading_version, feature_count, piece_count, repaired_count, filename, file_key, name_field, pending_details, error, error_feature, created_at, updated_at`;

/** Layers an actor may list: provider staff the provider's (tenant_id NULL); a tenant the provider's and its own. */
export async function listLayers(
  tx: Executor,
  opts: { tenantId: string | null; owner?: 'provider' | 'tenant' | undefined; kind?: ReferenceLayerKind | undefined },
): Promise<LayerRow[]> {
  const owner =
    opts.tenantId === null || opts.owner === 'provider'
      ? sql`tenant_id IS NULL`
      : opts.owner === 'tenant'
        ? sql`tenant_id = ${opts.tenantId}`
        : sql`(tenant_id IS NULL OR tenant_id = ${opts.tenantId})`;
  return queryRows<LayerRow>(
    tx,
    sql`SELECT ${COLUMNS} FROM reference_layers WHERE ${owner} ${opts.kind ? sql`AND kind = ${opts.kind}::reference_layer_kind` : sql``}
        ORDER BY created_at DESC, id DESC LIMIT 1000`,
  );
}

/** One layer, provider's or the tenant's own (tenantId null: provider layers only). */
export async function findLayer(tx: Executor, id: string, tenantId: string | null, opts: { lock?: boolean } = {}): Promise<LayerRow | null> {
  const owner = tenantId === null ? sql`tenant_id IS NULL` : sql`(tenant_id IS NULL OR tenant_id = ${tenantId})`;
  const rows = await queryRows<LayerRow>(tx, sql`SELECT ${COLUMNS} FROM reference_layers WHERE id = ${id} AND ${owner} ${opts.lock ? sql`FOR UPDATE` : sql``}`);
  return rows[0] ?? null;
}

/** Any layer by id (the load job, system scope). */
export async function layerById(tx: Executor, id: string): Promise<LayerRow | null> {
  const rows = await queryRows<LayerRow>(tx, sql`SELECT ${COLUMNS} FROM reference_layers WHERE id = ${id}`);
  return rows[0] ?? null;
}

export async function insertLayer(
  tx: Executor,
  v: {
    id: string;
    tenantId: string | null;
    name: string;
    kind: ReferenceLayerKind;
    referenceDate: string;
    source: string;
    licence: string;
    nameField: string | null;
    filename: string;
    fileKey: string;
    createdBy: string;
  },
): Promise<LayerRow> {
  const [row] = await queryRows<LayerRow>(
    tx,
    sql`INSERT INTO reference_layers (id, tenant_id, name, kind, reference_date, source, licence, name_field, filename, file_key, created_by, status, loading_version)
        VALUES (${v.id}, ${v.tenantId}, ${v.name}, ${v.kind}::reference_layer_kind, ${v.referenceDate}::date, ${v.source}, ${v.licence}, ${v.nameField},
                ${v.filename}, ${v.fileKey}, ${v.createdBy}, 'queued', 1)
        RETURNING ${COLUMNS}`,
  );
  return row!;
}

/** A replacement is queued: the next version number, the new file, and the details that apply once it is in use. */
export async function queueReplacement(tx: Executor, id: string, v: { filename: string; fileKey: string; details: LayerDetails | null }): Promise<LayerRow> {
  const [row] = await queryRows<LayerRow>(
    tx,
    sql`UPDATE reference_layers
           SET status = 'queued', progress = 0, features_loaded = 0, error = NULL, error_feature = NULL,
               loading_version = version + 1, filename = ${v.filename}, file_key = ${v.fileKey},
               pending_details = ${v.details ? jsonb(v.details) : sql`NULL`}, updated_at = now()
         WHERE id = ${id}
     RETURNING ${COLUMNS}`,
  );
  return row!;
}

export async function setLoadState(tx: Executor, id: string, v: { status?: LayerRow['status']; progress?: number; featuresLoaded?: number }): Promise<void> {
  await tx.execute(sql`
    UPDATE reference_layers
       SET status = coalesce(${v.status ?? null}, status), progress = coalesce(${v.progress ?? null}::int, progress),
           features_loaded = coalesce(${v.featuresLoaded ?? null}::int, features_loaded), updated_at = now()
     WHERE id = ${id}`);
}

export type FeatureInput = { n: number; ewkb: string };

/**
 * Turns PostgreSQL's JIT compilation off for the rest of the caller's transaction. PostGIS declares its set-returning
 * functions (ST_Dump, ST_Subdivide) at 1,000 rows each, so a load window's plan is costed at ~1.8e9 and PostgreSQL 15
 * compiled it with LLVM every time: 2.3 s of JIT for 0.13 s of work per 500 features (EXPLAIN ANALYZE, bench:screening).
 * The screening statement's lateral overlap is costed far above jit_above_cost too. PGlite has no JIT: a no-op there.
 */
export async function withoutJit(tx: Executor): Promise<void> {
  await tx.execute(sql`SET LOCAL jit = off`);
}

/**
 * For a background write that can be redone (a load window, a screening batch): JIT off (withoutJit), and the commit
 * not waiting for its WAL flush. A crash can lose such a commit, but never one after it: the load's swap and the
 * screening's end (finishScreening) commit synchronously, which flushes every earlier commit's WAL first; a load or
 * screening that had not reached them starts over (reference-layers.load.ts). A 1M-feature load commits 2,000 windows
 * and a 100k-farm screening hundreds of batches: none of them waits for a disk flush (docs/decisions/0098-screening-at-scale-2.md).
 */
export async function forRedoableWrite(tx: Executor): Promise<void> {
  await tx.execute(sql`SET LOCAL jit = off`);
  await tx.execute(sql`SET LOCAL synchronous_commit = off`);
}

/**
 * One batch of a version's features: each repaired (ST_MakeValid, keeping its polygonal part), subdivided to at most
 * SUBDIVIDE_VERTICES vertices a piece and stored as polygons. Returns the pieces written, the features that were
 * invalid (repaired), and the first feature left with no area (degenerate: nothing to screen against).
 *
 * Where a load's database time goes (bench:screening, docs/decisions/0098-screening-at-scale-2.md): the features come as one
 * binary bytea of their EWKBs, cut by offsets, not a jsonb document of hex strings (whose parsing took a fifth of the
 * load's database time, and a text[] of them as much); validity is checked once a
 * feature (a MATERIALIZED step: inlined, the check ran twice); a polygon already within SUBDIVIDE_VERTICES is stored
 * as it is, which is what ST_Subdivide returns for it, without the subdivision and ST_Dump. The rest is the GiST
 * index's upkeep on every inserted row.
 */
export async function insertFeatures(
  tx: Executor,
  layer: { id: string; tenantId: string | null; version: number },
  features: FeatureInput[],
): Promise<{ pieces: number; repaired: number; empty: number | null }> {
  await withoutJit(tx);
  // The EWKBs as one bytea (a binary parameter: nothing for the database to parse), cut by offset and length; the
  // feature numbers, offsets and lengths as short int[] literals.
  const parts = features.map((f) => Buffer.from(f.ewkb, 'hex'));
  const offsets: number[] = [];
  let at = 0;
  for (const b of parts) {
    offsets.push(at);
    at += b.length;
  }
  const blob = Buffer.concat(parts, at);
  const numbers = `{${features.map((f) => f.n).join(',')}}`;
  const [r] = await queryRows<{ pieces: number; repaired: number; empty: number | null }>(
    tx,
    sql`WITH input AS MATERIALIZED (
          SELECT x.n, g.g, ST_IsValid(g.g) AS valid
            FROM unnest(${numbers}::int[], ${`{${offsets.join(',')}}`}::int[], ${`{${parts.map((b) => b.length).join(',')}}`}::int[]) AS x(n, o, len)
            CROSS JOIN LATERAL (SELECT ST_GeomFromEWKB(substring(${blob}::bytea FROM x.o + 1 FOR x.len)) AS g) g
        ), fixed AS (
          SELECT n, NOT valid AS repaired, ST_CollectionExtract(CASE WHEN valid THEN g ELSE ST_MakeValid(g) END, 3) AS g FROM input
        ), pieces AS (
          SELECT f.n, s.g
            FROM fixed f
            CROSS JOIN LATERAL (
              SELECT f.g AS g WHERE ST_GeometryType(f.g) = 'ST_Polygon' AND ST_NPoints(f.g) <= ${SUBDIVIDE_VERTICES}
              UNION ALL
              SELECT (ST_Dump(ST_Subdivide(f.g, ${SUBDIVIDE_VERTICES}))).geom WHERE NOT (ST_GeometryType(f.g) = 'ST_Polygon' AND ST_NPoints(f.g) <= ${SUBDIVIDE_VERTICES})
            ) s
           WHERE NOT ST_IsEmpty(f.g)
        ), written AS (
          INSERT INTO reference_layer_features (layer_id, version, tenant_id, feature, geom)
          SELECT ${layer.id}, ${layer.version}, ${layer.tenantId}, n, ST_SetSRID(g, 4326) FROM pieces WHERE ST_GeometryType(g) = 'ST_Polygon' AND NOT ST_IsEmpty(g)
          RETURNING 1
        )
        SELECT (SELECT count(*) FROM written)::int AS pieces, (SELECT count(*) FROM fixed WHERE repaired)::int AS repaired,
               (SELECT min(n) FROM fixed WHERE ST_IsEmpty(g) OR ST_Area(g) = 0) AS empty`,
  );
  return r!;
}

/** Removes the features of one version (a failed or abandoned load); at most `limit` rows per call. */
export async function deleteVersionFeatures(tx: Executor, layerId: string, version: number, limit = 50_000): Promise<number> {
  const rows = await queryRows<{ n: number }>(
    tx,
    sql`WITH gone AS (
          DELETE FROM reference_layer_features WHERE ctid IN (SELECT ctid FROM reference_layer_features WHERE layer_id = ${layerId} AND version = ${version} LIMIT ${limit})
          RETURNING 1)
        SELECT count(*)::int AS n FROM gone`,
  );
  return rows[0]?.n ?? 0;
}

/**
 * Puts a loaded version in use, in one statement: from here every screening reads it. The pending details apply with
 * it; the older versions' features are removed by the caller (they are no longer read).
 */
export async function swapVersion(tx: Executor, id: string, version: number, counts: { features: number; pieces: number; repaired: number }): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`UPDATE reference_layers
           SET version = ${version}, loading_version = NULL, feature_count = ${counts.features}, piece_count = ${counts.pieces}, repaired_count = ${counts.repaired},
               name = coalesce(pending_details->>'name', name),
               kind = coalesce((pending_details->>'kind')::reference_layer_kind, kind),
               reference_date = coalesce((pending_details->>'reference_date')::date, reference_date),
               source = coalesce(pending_details->>'source', source),
               licence = coalesce(pending_details->>'licence', licence),
               pending_details = NULL, status = 'screening', progress = 50, error = NULL, error_feature = NULL, updated_at = now()
         WHERE id = ${id} AND loading_version = ${version}
     RETURNING id`,
  );
  return rows.length > 0;
}

export async function deleteOlderVersions(tx: Executor, id: string, version: number): Promise<void> {
  await tx.execute(sql`DELETE FROM reference_layer_features WHERE layer_id = ${id} AND version < ${version}`);
}

/** A load that failed: the staged version is abandoned (its rows removed by the caller); an earlier version stays in use. */
export async function failLoad(tx: Executor, id: string, version: number, error: string, feature: number | null): Promise<void> {
  await tx.execute(sql`
    UPDATE reference_layers
       SET status = 'failed', loading_version = NULL, pending_details = NULL, error = ${error}, error_feature = ${feature}::int, updated_at = now()
     WHERE id = ${id} AND loading_version = ${version}`);
}

export async function finishScreening(tx: Executor, id: string, version: number): Promise<void> {
  await tx.execute(
    sql`UPDATE reference_layers SET status = 'ready', progress = 100, updated_at = now() WHERE id = ${id} AND version = ${version} AND status = 'screening'`,
  );
}

/** Layers with a load queued or running, or a screening not finished. */
export async function unfinishedLayerIds(tx: Executor): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`SELECT id FROM reference_layers WHERE loading_version IS NOT NULL OR status = 'screening' ORDER BY updated_at`,
  );
  return rows.map((r) => r.id);
}

export async function deleteLayer(tx: Executor, id: string): Promise<void> {
  await tx.execute(sql`DELETE FROM reference_layers WHERE id = ${id}`);
}

export type EvidenceRow = { layer_id: string; layer_name: string; kind: ReferenceLayerKind; owner: 'provider' | 'tenant'; feature: number; geometry: string };
export type EvidenceBox = { west: number; south: number; east: number; north: number };

/** The farm's box widened by a quarter of its larger side plus about 50 m each way (null: no such farm of the tenant). */
export async function evidenceBox(tx: Executor, tenantId: string, farmId: string): Promise<EvidenceBox | null> {
  const [row] = await queryRows<EvidenceBox>(
    tx,
    sql`WITH f AS (SELECT ST_Envelope(geom) AS e FROM farms WHERE tenant_id = ${tenantId} AND id = ${farmId}),
             b AS (SELECT ST_Expand(e, greatest(ST_XMax(e) - ST_XMin(e), ST_YMax(e) - ST_YMin(e)) * 0.25 + 0.0005) AS b FROM f)
        SELECT ST_XMin(b) AS west, ST_YMin(b) AS south, ST_XMax(b) AS east, ST_YMax(b) AS north FROM b`,
  );
  return row ? { west: Number(row.west), south: Number(row.south), east: Number(row.east), north: Number(row.north) } : null;
}

/**
 * The features (of the layer versions in use that apply to the tenant: the provider's and its own) whose pieces meet
 * the farm, each merged from its pieces inside the box and clipped to it, as GeoJSON MultiPolygons (7 decimals, about
 * 1 cm). At most `limit` features, in layer-kind, layer-name and feature order.
 */
export async function evidenceFeatures(tx: Executor, tenantId: string, farmId: string, box: EvidenceBox, limit: number): Promise<EvidenceRow[]> {
  const envelope = sql`ST_MakeEnvelope(${box.west}, ${box.south}, ${box.east}, ${box.north}, 4326)`;
  return queryRows<EvidenceRow>(
    tx,
    sql`WITH f AS (SELECT geom FROM farms WHERE tenant_id = ${tenantId} AND id = ${farmId}),
             hit AS (
               SELECT DISTINCT l.id AS layer_id, l.kind, l.name, p.feature
                 FROM f
                 -- By the spatial index alone (OFFSET 0 keeps the version condition out of the scan; with it, stale
                 -- statistics made the planner read every piece of the version: reference-layers.screening.ts overlapOf).
                 JOIN LATERAL (SELECT p.layer_id, p.version, p.feature, p.geom FROM reference_layer_features p WHERE p.geom && f.geom OFFSET 0) p ON ST_Intersects(p.geom, f.geom)
                 JOIN reference_layers l ON l.id = p.layer_id AND p.version = l.version
                WHERE l.version > 0 AND (l.tenant_id IS NULL OR l.tenant_id = ${tenantId})
                ORDER BY l.kind, l.name, l.id, p.feature
                LIMIT ${limit})
        SELECT h.layer_id, l.name AS layer_name, l.kind::text AS kind, CASE WHEN l.tenant_id IS NULL THEN 'provider' ELSE 'tenant' END AS owner, h.feature,
               ST_AsGeoJSON(ST_Multi(ST_CollectionExtract(ST_Union(ST_Intersection(p.geom, ${envelope})), 3)), 7) AS geometry
          FROM hit h
          JOIN reference_layers l ON l.id = h.layer_id
          JOIN (SELECT p.layer_id, p.version, p.feature, p.geom FROM reference_layer_features p WHERE p.geom && ${envelope} OFFSET 0) p
            ON p.layer_id = h.layer_id AND p.version = l.version AND p.feature = h.feature
         GROUP BY h.layer_id, l.name, l.kind, l.tenant_id, h.feature
         ORDER BY l.kind, l.name, h.layer_id, h.feature`,
  );
}

// ---------- verdict sweeps (farm.verdict_changed; reference-layers.verdicts.ts) ----------

/** Set when this process asked for a verdict sweep: the embedded sweep loop looks only then (the database stays idle). */
export const verdictHint = { wake: true };

/**
 * Asks for a verdict sweep of one tenant's farms, or (null: a provider layer) of every tenant with farms, in the
 * caller's transaction. A sweep already asked for or under way starts over from the first farm (its cursor is reset):
 * what it compared so far may have changed.
 */
export async function requestVerdictSweep(tx: Executor, tenantId: string | null): Promise<void> {
  const tenants = tenantId
    ? sql`SELECT ${tenantId}::uuid AS id`
    : sql`SELECT t.id FROM tenants t WHERE EXISTS (SELECT 1 FROM farms f WHERE f.tenant_id = t.id)`;
  await tx.execute(sql`
    INSERT INTO farm_verdict_sweeps (tenant_id, requested_at, after_farm)
    SELECT x.id, clock_timestamp(), NULL FROM (${tenants}) x
    ON CONFLICT (tenant_id) DO UPDATE SET requested_at = clock_timestamp(), after_farm = NULL`);
  verdictHint.wake = true;
}
