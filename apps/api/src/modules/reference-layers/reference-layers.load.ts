// Loads a reference layer's uploaded file as a new version (issue 29), run by the reference-layer job. The file is read
// by the analyses' readers (GeoJSON in a stream; KML, KMZ and zipped Shapefile whole), with their CRS handling, one
// window of features at a time; each window is written in its own short transaction as rows of the new version, which
// no screening reads until swapVersion puts the complete version in use. Any bad feature or file fails the load: the
// staged rows are removed and the layer keeps the version it had (none for a new layer), with the error and the
// feature number. Then every farm the layer applies to is screened against it (reference-layers.screening.ts).
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import type { Deps } from '../../context.js';
import { withScope, type Scope } from '../../db/client.js';
import { ParseError } from '../../ingest/limits.js';
import { readAnalysisFile } from '../../ingest/read.js';
import { readGeometry, toEwkbHex, Unreadable, Unsupported } from '../../ingest/geometry.js';
import { uploadsDir } from '../../ingest/uploads.js';
import * as q from './reference-layers.queries.js';
import type { FeatureInput } from './reference-layers.queries.js';
import { BATCH_TARGET_MS, nextBatchSize, screenLayerEverywhere } from './reference-layers.screening.js';

/** Features read at a time, and the most per load transaction. */
export const LOAD_WINDOW = 500;
/** The fewest features per load transaction (embedded, where a transaction's size follows its time as screenings' do). */
const MIN_LOAD_CHUNK = 20;
/** The most features one layer file may hold (the streamed GeoJSON reader's cap; other formats are read whole). */
export const MAX_LAYER_FEATURES = 2_000_000;

/** A load that cannot finish, with the feature it is about (1-based, file order) when it is about one. */
export class LoadError extends Error {
  constructor(
    message: string,
    readonly feature: number | null = null,
  ) {
    super(message);
  }
}

const scopeOf = (tenantId: string | null): Scope => (tenantId ? { kind: 'tenant', tenantId } : { kind: 'system' });

/** One parsed row (a feature) → its EWKB, or a LoadError naming the feature. */
export function featureGeometry(row: Record<string, unknown>, n: number): string {
  const value = row['farm_coordinates'];
  if (value === undefined || value === null) throw new LoadError(`Feature ${n} has no geometry`, n);
  try {
    const g = readGeometry(value);
    if (g.kind === 'point') throw new LoadError(`Feature ${n} is a point; a reference layer holds polygons (areas)`, n);
    return toEwkbHex(g);
  } catch (err) {
    if (err instanceof LoadError) throw err;
    if (err instanceof Unsupported || err instanceof Unreadable) throw new LoadError(`Feature ${n}: ${err.message}`, n);
    throw err;
  }
}

async function copyToDisk(deps: Deps, key: string): Promise<string> {
  const data = await deps.storage.read(key);
  if (!data) throw new LoadError('The uploaded file is no longer stored; upload the layer again');
  const dir = uploadsDir(deps);
  await fs.promises.mkdir(dir, { recursive: true });
  const file = path.join(dir, `${crypto.randomUUID()}.layer`);
  await pipeline(Readable.from(data), fs.createWriteStream(file, { flags: 'wx' }));
  return file;
}

/** Removes a version's staged rows, a bounded delete per transaction. */
async function dropVersion(deps: Deps, layer: { id: string; tenantId: string | null }, version: number): Promise<void> {
  for (;;) {
    const n = await withScope(deps.db, scopeOf(layer.tenantId), (tx) => q.deleteVersionFeatures(tx, layer.id, version));
    if (n === 0) return;
  }
}

export type LoadOutcome = { status: 'ready' | 'failed' | 'skipped'; features?: number; pieces?: number; error?: string };

/** The job's work: load the layer's queued version, put it in use, screen the farms. Safe to re-run after a crash. */
export async function loadReferenceLayer(deps: Deps, layerId: string): Promise<LoadOutcome> {
  const layer = await withScope(deps.db, { kind: 'system' }, (tx) => q.layerById(tx, layerId));
  if (!layer) return { status: 'skipped' };
  // A version put in use whose screening did not finish (the process ended, or an attempt failed): screen again.
  if (layer.loading_version === null && layer.status === 'screening' && layer.version > 0) {
    await screenAfterSwap(deps, { id: layer.id, tenantId: layer.tenant_id }, layer.version);
    return { status: 'ready', features: Number(layer.feature_count), pieces: Number(layer.piece_count) };
  }
  if (layer.loading_version === null || !layer.file_key || !layer.filename) return { status: 'skipped' };
  const version = layer.loading_version;
  const ref = { id: layer.id, tenantId: layer.tenant_id };
  const scope = scopeOf(layer.tenant_id);
  // An earlier attempt of this version (a crashed process) may have left rows: start clean.
  await dropVersion(deps, ref, version);
  await withScope(deps.db, scope, (tx) => q.setLoadState(tx, layer.id, { status: 'loading', progress: 0, featuresLoaded: 0 }));
  let file: string | null = null;
  const counts = { features: 0, pieces: 0, repaired: 0 };
  try {
    file = await copyToDisk(deps, layer.file_key);
    // On PostgreSQL a window is one transaction, and the next window is read and parsed while the database writes this
    // one (one write in flight: this process's parsing and the database's work overlap, on two cores). Embedded, the one
    // connection is held for a whole transaction and runs on this thread: a window is written in chunks whose size
    // follows the time the last one took (BATCH_TARGET_MS), with a turn of the event loop between them, so requests
    // get in.
    const embedded = deps.database.kind === 'pglite';
    let chunk = embedded ? MIN_LOAD_CHUNK : LOAD_WINDOW;
    let inFlight: Promise<void> | null = null;
    const write = async (part: FeatureInput[]): Promise<void> => {
      const r = await withScope(deps.db, scope, async (tx) => {
        await q.forRedoableWrite(tx);
        const out = await q.insertFeatures(tx, { id: layer.id, tenantId: layer.tenant_id, version }, part);
        if (out.empty !== null) throw new LoadError(`Feature ${out.empty} has no area (its rings are degenerate)`, out.empty);
        await q.setLoadState(tx, layer.id, { featuresLoaded: counts.features + part.length });
        return out;
      });
      counts.features += part.length;
      counts.pieces += r.pieces;
      counts.repaired += r.repaired;
    };
    // The write under way, awaited before the next starts; its failure (a lower feature number) wins over the reader's.
    const settle = async (): Promise<void> => {
      const pending = inFlight;
      inFlight = null;
      if (pending) await pending;
    };
    try {
      await readAnalysisFile(
        file,
        layer.filename,
        { nameField: layer.name_field ?? undefined, maxRows: MAX_LAYER_FEATURES, window: LOAD_WINDOW },
        async (rows, first) => {
          let features: FeatureInput[];
          try {
            features = rows.map((row, i) => ({ n: first + i, ewkb: featureGeometry(row, first + i) }));
          } catch (err) {
            await settle();
            throw err;
          }
          if (!embedded) {
            await settle();
            const next = write(features);
            next.catch(() => undefined); // awaited by settle(); marked handled meanwhile
            inFlight = next;
            return;
          }
          for (let i = 0; i < features.length;) {
            const part = features.slice(i, i + chunk);
            const started = performance.now();
            await write(part);
            i += part.length;
            chunk = nextBatchSize(part.length, performance.now() - started, BATCH_TARGET_MS.pglite, { min: MIN_LOAD_CHUNK, max: LOAD_WINDOW });
            await new Promise((resolve) => setImmediate(resolve));
          }
        },
      );
      await settle();
    } catch (err) {
      await settle();
      if (err instanceof ParseError) throw new LoadError(`${err.message} (${err.code})`, err.feature);
      throw err;
    }
    if (counts.features === 0) throw new LoadError('The file has no features');
  } catch (err) {
    const message = err instanceof LoadError ? err.message : `The layer could not be loaded: ${err instanceof Error ? err.message : String(err)}`;
    const feature = err instanceof LoadError ? err.feature : null;
    await dropVersion(deps, ref, version);
    await withScope(deps.db, scope, (tx) => q.failLoad(tx, layer.id, version, message, feature));
    if (!(err instanceof LoadError)) deps.log.error({ err, layerId }, 'reference layer load failed');
    return { status: 'failed', error: message };
  } finally {
    if (file) await fs.promises.rm(file, { force: true }).catch(() => undefined);
  }
  const swapped = await withScope(deps.db, scope, async (tx) => {
    if (!(await q.swapVersion(tx, layer.id, version, counts))) return false;
    await q.deleteOlderVersions(tx, layer.id, version);
    return true;
  });
  if (!swapped) {
    await dropVersion(deps, ref, version);
    return { status: 'skipped' };
  }
  deps.database.maintenance?.wrote(['reference_layer_features']);
  await screenAfterSwap(deps, ref, version);
  return { status: 'ready', features: counts.features, pieces: counts.pieces };
}

/** Screens every farm the layer applies to against the version just put in use, then marks the layer ready. */
async function screenAfterSwap(deps: Deps, layer: { id: string; tenantId: string | null }, version: number): Promise<void> {
  const scope = scopeOf(layer.tenantId);
  // Progress at most once a second (batches are short: reference-layers.screening.ts BATCH_TARGET_MS).
  let shown = -1;
  let shownAt = 0;
  const screened = await screenLayerEverywhere(deps, { id: layer.id, tenantId: layer.tenantId, version }, async (done, total) => {
    const progress = Math.min(99, 50 + Math.floor((50 * done) / Math.max(1, total)));
    if (progress === shown || Date.now() - shownAt < 1000) return;
    shown = progress;
    shownAt = Date.now();
    await withScope(deps.db, scope, (tx) => q.setLoadState(tx, layer.id, { progress }));
  });
  if (!screened.stopped) {
    // The figures are complete: verdicts may have changed (farm.verdict_changed, reference-layers.verdicts.ts).
    await withScope(deps.db, scope, async (tx) => {
      await q.finishScreening(tx, layer.id, version);
      await q.requestVerdictSweep(tx, layer.tenantId);
    });
  }
  deps.database.maintenance?.wrote(['farm_screenings']);
}

/** Layers whose load or screening had not finished (an embedded start: the process that ran them has ended). */
export async function unfinishedLayers(deps: Pick<Deps, 'db'>): Promise<string[]> {
  const rows = await withScope(deps.db, { kind: 'system' }, (tx) => q.unfinishedLayerIds(tx));
  return rows;
}
