// Custom-analysis use cases: create (check the chosen areas, read and stage the rows off the request's critical path,
// store the upload, enqueue the job), list, read with its four result categories, the result lists, and delete.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  ANALYSIS_MAP_LIMIT,
  ANALYSIS_OVERLAPS_PER_ROW,
  MAX_ANALYSIS_LAYERS,
  type ReferenceLayerKind,
  type AnalysisDetail,
  type AnalysisFarm,
  type AnalysisListKind,
  type AnalysisSummary,
  type FieldError,
} from '@farmland/contracts';
import type { Ctx, Deps } from '../../context.js';
import { scopeOf } from '../../context.js';
import { authorize, authorizeRow, rowTenant } from '../../lib/policy.js';
import { scopedReader, withScope, type Executor } from '../../db/client.js';
import { cursorPage, MAX_LIST_ROWS, pageOffset, paginate, type Page } from '../../db/pagination.js';
import { Problem, problems } from '../../lib/problems.js';
import { recordActivity } from '../activity/activity.service.js';
import { sha256 } from '../../lib/crypto.js';
import { fileKey, fileUrl } from '../files/files.service.js';
import { insertFile as recordFile } from '../files/files.queries.js';
import { extensionKind } from '../../ingest/file-type.js';
import { MAX_ROWS } from '../../ingest/limits.js';
import { uploadPath, uploadsDir } from '../../ingest/uploads.js';
import { stageInWorker } from './analyses.parse-client.js';
import type { FileKind } from '../../ingest/limits.js';
import { clearRows, failAndNotify, stagedKey, tuningFor } from './analyses.pipeline.js';
import { analysesPolicy } from './analyses.policy.js';
import { presentDetail, presentFarm, presentOverlaps, presentSummary, screenedLayers } from './analyses.presenter.js';
import * as q from './analyses.queries.js';
import * as qo from './analyses.overlap.queries.js';
import * as qr from './analyses.run.queries.js';
import { layersInUse } from '../reference-layers/reference-layers.screening.js';
import { STAGE_LINE_ROWS, stageLine, type Duplicates } from './analyses.rows.js';

/** Failed rows shown inline in the analysis (the errors list has them all). */
const ERROR_DETAILS_LIMIT = 1000;

/**
 * Retry-After of a refused upload (queue full): a slot frees when one of the tenant's analyses starts, which with the
 * fair queue is one round of the queue away; small analyses take seconds, a 100k-row one about a minute.
 */
export const QUEUE_FULL_RETRY_AFTER_SECONDS = 30;

/** Refuses (429) when the tenant already has the most analyses waiting that the configuration allows. */
async function assertQueueRoom(deps: Deps, tx: Executor, tenantId: string): Promise<void> {
  const limit = deps.config.analysisMaxQueuedPerTenant;
  if ((await q.countQueued(tx, tenantId)) >= limit) throw problems.analysisQueueFull(limit, QUEUE_FULL_RETRY_AFTER_SECONDS);
}

export type Enqueue = (data: { analysisId: string; tenantId: string }) => Promise<void>;

/** A file upload: written to this machine's disk as it arrived (path), or bytes in memory (tests, SDK callers in process). */
export type FileSource =
  | { kind: 'file'; filename: string; nameField?: string | undefined; path: string; size: number; sha256: string }
  | { kind: 'file'; filename: string; nameField?: string | undefined; data: Buffer };

export type CreateInput = {
  name?: string | null | undefined;
  description?: string | null | undefined;
  operationalAreas: string[];
  minimumFarmSize?: number | undefined;
  requireRecognition?: boolean | undefined;
  /** A follow-up's parent: must be an analysis of the same tenant (else 400 on parent_analysis_id). */
  parentAnalysisId?: string | null | undefined;
  /** Issue 29: reference layers to screen the rows against (the tenant's or the provider's, in use; else 400 on reference_layer_ids). */
  referenceLayerIds?: string[] | undefined;
  source: FileSource | { kind: 'json'; locations: Array<Record<string, unknown>> };
};

const fileProblem = (status: number, code: string, message: string) => new Problem(status, code, `file: ${message}`, [{ field: 'file', message }]);

const contentTypes = {
  csv: 'text/csv',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  geojson: 'application/geo+json',
  kml: 'application/vnd.google-earth.kml+xml',
  kmz: 'application/vnd.google-earth.kmz',
  zip: 'application/zip',
  gpkg: 'application/geopackage+sqlite3',
} as const;

export { uploadPath, uploadsDir };

/** Uploads older than this are left over from a process that ended mid-request; the sweep removes them. */
export const UPLOAD_LEFTOVER_MS = 60 * 60 * 1000;

/** Removes uploads a process left behind when it ended mid-request (at start; other processes' live uploads are younger). */
export async function sweepUploads(deps: Pick<Deps, 'config' | 'log'>, olderThanMs = UPLOAD_LEFTOVER_MS): Promise<number> {
  const dir = uploadsDir(deps);
  let names: string[];
  try {
    names = await fs.promises.readdir(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const file = path.join(dir, name);
    const st = await fs.promises.stat(file).catch(() => null);
    if (st && Date.now() - st.mtimeMs >= olderThanMs) {
      await fs.promises.rm(file, { force: true }).catch(() => undefined);
      removed++;
    }
  }
  if (removed > 0) deps.log.warn({ removed, dir }, 'removed uploads left behind by an earlier process');
  return removed;
}

/** The row cap of an analysis (ANALYSIS_MAX_ROWS, else the engine's default). */
export const maxRowsOf = (deps: Pick<Deps, 'config'>) => deps.config.analysisMaxRows;

/** JSON locations are staged on the main thread in slices, yielding between them, so the event loop stays free. */
async function stageLocations(locations: Array<Record<string, unknown>>, areaIds: ReadonlySet<string>): Promise<string[]> {
  const lines: string[] = [];
  const seen: Duplicates = new Map();
  for (let i = 0; i < locations.length; i += STAGE_LINE_ROWS) {
    lines.push(stageLine(locations, i, Math.min(locations.length, i + STAGE_LINE_ROWS), areaIds, seen));
    if (lines.length % 4 === 0) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return lines;
}

/** What staging read: the rows and the kind of source. */
export type Staged = { total: number; kind: FileKind | 'json' };

type DiskFile = Extract<FileSource, { path: string }>;

/**
 * Reads and checks the rows and writes them, staged, under `key` in storage: a file in a worker thread that reads it from
 * disk in a stream, its staged rows written as they come; JSON locations in slices. A refused file (4xx) or a store that
 * fails leaves nothing under the key. Exported for the benchmark.
 */
export async function stageSource(
  deps: Pick<Deps, 'config' | 'storage' | 'database'>,
  source: DiskFile | Extract<CreateInput['source'], { kind: 'json' }>,
  areaIds: string[],
  key: string,
): Promise<Staged> {
  const maxRows = maxRowsOf(deps);
  if (source.kind === 'json') {
    const cap = Math.min(maxRows, MAX_ROWS);
    if (source.locations.length > cap) throw problems.validation([{ field: 'locations', message: `At most ${cap} locations per analysis` }]);
    const lines = await stageLocations(source.locations, new Set(areaIds));
    await deps.storage.put(key, [Buffer.from(lines.join('\n'), 'utf8')]);
    return { total: source.locations.length, kind: 'json' };
  }
  if (source.size === 0) throw fileProblem(400, 'file_empty', 'The file is empty');
  // Embedded, the database shares the process: one staging thread keeps the peak lower (docs/decisions/0022-million-row-analyses.md).
  const split = deps.database.kind === 'postgres';
  const r = await stageInWorker(
    { path: source.path, filename: source.filename, areaIds, nameField: source.nameField, maxRows },
    source.size,
    (staged) => deps.storage.put(key, staged),
    undefined,
    split,
  );
  if (!r.ok) throw r.code === 'crs_unsupported' ? problems.crsUnsupported(r.message) : fileProblem(r.status, r.code, r.message);
  return { total: r.total, kind: r.kind };
}

/** A file source on disk: an in-memory one is written to uploadsDir first (removed by the returned cleanup). */
async function onDisk(deps: Deps, source: FileSource): Promise<{ file: DiskFile; cleanup: () => Promise<void> }> {
  if ('path' in source) return { file: source, cleanup: async () => undefined };
  const file = await uploadPath(deps);
  await fs.promises.writeFile(file, source.data, { flag: 'wx' });
  return {
    file: { kind: 'file', filename: source.filename, nameField: source.nameField, path: file, size: source.data.length, sha256: sha256(source.data) },
    cleanup: () => fs.promises.rm(file, { force: true }),
  };
}

export async function createAnalysis(deps: Deps, ctx: Ctx, enqueue: Enqueue, input: CreateInput): Promise<AnalysisDetail> {
  if (input.source.kind === 'file') {
    const { file, cleanup } = await onDisk(deps, input.source);
    try {
      return await create(deps, ctx, enqueue, { ...input, source: file });
    } finally {
      await cleanup();
    }
  }
  return create(deps, ctx, enqueue, input as CreateInput & { source: { kind: 'json' } });
}

async function create(
  deps: Deps,
  ctx: Ctx,
  enqueue: Enqueue,
  input: CreateInput & { source: DiskFile | { kind: 'json'; locations: Array<Record<string, unknown>> } },
): Promise<AnalysisDetail> {
  const { actor, tenantId } = authorize(ctx, analysesPolicy, 'manage');
  const scope = scopeOf(actor);
  const wanted = [...new Set(input.operationalAreas.map((x) => x.toLowerCase()))];
  if (wanted.length === 0) throw problems.field('operational_areas', 'Choose at least one operational area');

  const { areaIds, chosen, layers, defaults, parent } = await withScope(deps.db, scope, async (tx) => {
    const chosen = await q.chosenAreas(tx, tenantId, wanted);
    const missing = wanted.filter((id) => !chosen.some((c) => c.id === id));
    if (missing.length > 0) throw problems.field('operational_areas', `Not one of your operational areas: ${missing.slice(0, 5).join(', ')}`);
    const layers = await chosenLayers(tx, tenantId, input.referenceLayerIds ?? []);
    const parent = input.parentAnalysisId ? await q.findAnalysis(tx, tenantId, input.parentAnalysisId) : null;
    // Another tenant's analysis gets the same answer as one that does not exist (its existence is not told).
    if (input.parentAnalysisId && !parent) throw problems.field('parent_analysis_id', 'Not one of your analyses');
    // Refused before the rows are read and staged; checked again, under the tenant's lock, before anything is stored.
    await assertQueueRoom(deps, tx, tenantId);
    return {
      areaIds: (await q.tenantAreaIds(tx, tenantId)).map((x) => x.toLowerCase()),
      chosen,
      layers,
      defaults: await q.tenantDefaults(tx, tenantId),
      parent,
    };
  });

  const id = crypto.randomUUID();
  const stagedAt = stagedKey(tenantId, id);
  // The source file is copied to storage from disk in a stream, before the transaction (no connection is held while a
  // large file is stored). A csv is copied while its rows are staged (the copy is disk and network, staging is CPU; a
  // 180 MB source on S3 is a multipart upload of its own); a file staging refuses as csv is refused with a 4xx, so the
  // copy is removed then. Other kinds are copied after staging, under the kind their content was read as. If anything
  // fails, neither object stays.
  const file = input.source.kind === 'file' ? input.source : null;
  const early = file && extensionKind(file.filename) === 'csv' ? fileKey(tenantId, 'analysis_source', 'csv') : null;
  // Settles to the store's error or null, so a failing copy is never an unhandled rejection while staging runs.
  const reading = file && early ? fs.createReadStream(file.path) : null;
  const copying =
    reading && early
      ? deps.storage.put(early, reading).then(
          () => null,
          (err: unknown) => err,
        )
      : null;
  let staged: Staged;
  try {
    // A refused file or a store that fails here (StorageError: 503) leaves nothing: no row was written, the staged
    // object never appeared.
    staged = await stageSource(deps, input.source, areaIds, stagedAt);
  } catch (err) {
    // The copy of a refused file stops where it is (the store discards what it wrote), or is removed if it had ended.
    reading?.destroy(new Error('the upload was refused'));
    if (early && (await copying) === null) await removeQuietly(deps, early);
    throw err;
  }
  const source =
    file && staged.kind !== 'json'
      ? { file, kind: staged.kind, key: early && staged.kind === 'csv' ? early : fileKey(tenantId, 'analysis_source', staged.kind) }
      : null;
  const copied = copying ? await copying : null;
  if (early && (copied !== null || source?.key !== early)) {
    if (copied === null) await removeQuietly(deps, early);
    else {
      await removeQuietly(deps, stagedAt);
      throw copied;
    }
  }
  if (source && source.key !== early) {
    await deps.storage.put(source.key, fs.createReadStream(source.file.path)).catch(async (err: unknown) => {
      await removeQuietly(deps, stagedAt);
      throw err;
    });
  }

  const name =
    input.name?.trim() || (input.source.kind === 'file' ? input.source.filename.slice(0, 200) : `Endpoint upload ${new Date().toISOString().slice(0, 10)}`);
  // A refused or failed insert (the queue is full) leaves nothing behind: the transaction rolls back and the staged rows
  // and the source file are removed.
  const row = await withScope(deps.db, scope, async (tx) => {
    await q.lockTenantQueue(tx, tenantId);
    await assertQueueRoom(deps, tx, tenantId);
    const sourceFileId = source
      ? await recordFile(tx, {
          tenantId,
          kind: 'analysis_source',
          storageKey: source.key,
          contentType: contentTypes[source.kind],
          sizeBytes: source.file.size,
          sha256: source.file.sha256,
          originalName: source.file.filename.slice(0, 200),
          createdBy: actor.userId,
        })
      : null;
    const a = await q.insertAnalysis(tx, tenantId, {
      id,
      name,
      description: input.description ?? null,
      sourceFileId,
      minimumFarmSize: input.minimumFarmSize ?? defaults.minimumFarmSize,
      requireRecognition: input.requireRecognition ?? true,
      threshold: defaults.recognitionThreshold,
      overlapMinAreaSqm: defaults.overlapMinAreaSqm,
      overlapMinShare: defaults.overlapMinShare,
      total: staged.total,
      createdBy: actor.userId,
      parentId: parent?.id ?? null,
    });
    await q.insertAnalysisAreas(
      tx,
      tenantId,
      id,
      chosen.map((c) => c.id),
    );
    await qr.insertAnalysisLayers(tx, tenantId, id, layers);
    await recordActivity(tx, ctx, { action: 'Create', description: `${actor.name} started the custom analysis ${name} (${staged.total} rows)` });
    return a;
  }).catch(async (err: unknown) => {
    await removeQuietly(deps, stagedAt);
    if (source) await removeQuietly(deps, source.key);
    throw err;
  });

  try {
    await enqueue({ analysisId: id, tenantId });
  } catch (err) {
    deps.log.error({ err, analysisId: id }, 'could not enqueue the analysis');
    await withScope(deps.db, scope, (tx) => failAndNotify(tx, tenantId, id, 'The analysis could not be queued. Try again.'));
    throw err;
  }
  return presentDetail(
    { ...row, source_file_name: source ? source.file.filename.slice(0, 200) : null },
    {
      publicUrl: deps.config.publicUrl,
      fileUrl: fileUrl(deps, row.source_file_id),
      areas: chosen,
      layers: layers.map((l) => ({ ...l, version: null })),
      errorRows: [],
      links: { parent, children: [] },
    },
  );
}

export async function listAnalyses(
  deps: Deps,
  ctx: Ctx,
  query: { page: number; page_size?: number | undefined; search?: string | undefined },
  url: string,
): Promise<Page<AnalysisSummary>> {
  const { actor, tenantId } = authorize(ctx, analysesPolicy, 'manage');
  const size = query.page_size ?? 10;
  // The page and its total in one statement, sent with the scope in one round trip (db/pagination.ts).
  const { rows, total } = await q.listAnalyses(scopedReader(deps.db, scopeOf(actor), ctx), tenantId, query.search, size, pageOffset(query.page, size));
  return paginate(rows.map(presentSummary), total, query.page, size, url);
}

export async function getAnalysis(deps: Deps, ctx: Ctx, id: string): Promise<AnalysisDetail> {
  const { actor, tenantId } = authorize(ctx, analysesPolicy, 'manage');
  return withScope(deps.db, scopeOf(actor), async (tx) => {
    const a = authorizeRow(ctx, analysesPolicy, 'manage', await q.findAnalysis(tx, tenantId, id), rowTenant);
    const done = a.status === 'completed';
    return presentDetail(a, {
      publicUrl: deps.config.publicUrl,
      fileUrl: fileUrl(deps, a.source_file_id),
      areas: await q.analysisAreas(tx, tenantId, id),
      layers: await qr.analysisLayers(tx, tenantId, id),
      errorRows: done ? await q.errorRows(tx, tenantId, id, ERROR_DETAILS_LIMIT) : [],
      links: await q.analysisLinks(tx, tenantId, a),
    });
  });
}

const countOf: Record<AnalysisListKind, (a: q.AnalysisRow) => number> = {
  within: (a) => a.within_count,
  outside: (a) => a.outside_count,
  overlapping: (a) => a.overlapping_count,
  unrecognized: (a) => a.unrecognized_count,
  errors: (a) => a.error_count,
};

/**
 * One page of a result list; empty until the analysis has completed (rows are never shown half-written). By page number
 * (a page starts within the first MAX_LIST_ROWS rows, as every list's), or with `after` by cursor: the rows after that
 * row in the list's order, read through the kind's index however deep (issue 28), with a `next` link carrying the cursor.
 */
export async function listFarms(
  deps: Deps,
  ctx: Ctx,
  id: string,
  kind: AnalysisListKind,
  query: { page: number; page_size?: number | undefined; after?: number | undefined },
  url: string,
): Promise<Page<AnalysisFarm> & { next_after?: number | null }> {
  const { actor, tenantId } = authorize(ctx, analysesPolicy, 'manage');
  const size = query.page_size ?? 100;
  const after = query.after;
  if (after !== undefined && query.page !== 1)
    throw problems.field('after', 'Send either page or after, not both: after reads on from a row, page counts from the top');
  if (after === undefined && (query.page - 1) * size >= MAX_LIST_ROWS) {
    throw problems.field(
      'page',
      `Pages reach the first ${MAX_LIST_ROWS.toLocaleString('en-US')} rows of a list (page ${Math.ceil(MAX_LIST_ROWS / size)} at page_size ${size}); read further with after=<row_number> (after=0 starts at the top, each page's next link goes on)`,
    );
  }
  return withScope(deps.db, scopeOf(actor), async (tx) => {
    const a = authorizeRow(ctx, analysesPolicy, 'manage', await q.findAnalysis(tx, tenantId, id), rowTenant);
    if (after !== undefined) {
      if (a.status !== 'completed') return cursorPage([], 0, null, size, url);
      const cursor = await q.cursorAt(tx, tenantId, id, kind, after);
      if (!cursor) throw problems.field('after', `after must be 0 or the row_number of a row of this list (${kind})`);
      const rows = await q.listFarmsAfter(tx, tenantId, id, kind, cursor, size + 1);
      const page = rows.slice(0, size);
      return cursorPage(await withOverlaps(tx, tenantId, id, page), countOf[kind](a), rows.length > size ? page[page.length - 1]!.row_number : null, size, url);
    }
    if (a.status !== 'completed') return paginate([], 0, query.page, size, url);
    const rows = await q.listFarms(tx, tenantId, id, kind, size, (query.page - 1) * size);
    return paginate(await withOverlaps(tx, tenantId, id, rows), countOf[kind](a), query.page, size, url);
  });
}

/** A page's rows with their overlap pairs (issue 28: grouped ones and slivers, with their measures). */
async function withOverlaps(tx: Executor, tenantId: string, id: string, rows: q.FarmRow[]): Promise<AnalysisFarm[]> {
  const valid = rows.filter((r) => r.category !== 'error').map((r) => r.row_number);
  const pairs = presentOverlaps(await qo.overlapsOfRows(tx, tenantId, id, valid, ANALYSIS_OVERLAPS_PER_ROW));
  const layers = rows.some((r) => r.risk_level) ? screenedLayers(await qr.analysisLayers(tx, tenantId, id)) : [];
  return rows.map((r) => presentFarm(r, pairs.get(r.row_number), layers));
}

/** Rows read per statement for the map (keyset chunks: each statement stays short on the embedded engine). */
const MAP_CHUNK = 5_000;

/**
 * The result map: every row with a polygon (or those in bbox), up to ANALYSIS_MAP_LIMIT, with the total count, as the
 * JSON text of an AnalysisMap (built in SQL in keyset chunks; a string body skips the response schema's check and
 * JSON.stringify, which cost more than the reads at 20,000 features: docs/decisions/0008-custom-farm-analysis-screens-and-configurations.md).
 */
export async function analysisMapJson(deps: Deps, ctx: Ctx, id: string, bbox?: [number, number, number, number]): Promise<string> {
  const { actor, tenantId } = authorize(ctx, analysesPolicy, 'manage');
  const scope = scopeOf(actor);
  const { status, count } = await withScope(deps.db, scope, async (tx) => {
    const a = authorizeRow(ctx, analysesPolicy, 'manage', await q.findAnalysis(tx, tenantId, id), rowTenant);
    return { status: a.status, count: a.status === 'completed' ? await q.countMapRows(tx, tenantId, id, bbox) : 0 };
  });
  if (status !== 'completed') return '{"count":0,"truncated":false,"features":[]}';
  const chunks: string[] = [];
  let read = 0;
  let after = 0;
  while (read < Math.min(count, ANALYSIS_MAP_LIMIT)) {
    const chunk = await withScope(deps.db, scope, (tx) => q.mapRowsJson(tx, tenantId, id, after, Math.min(MAP_CHUNK, ANALYSIS_MAP_LIMIT - read), bbox));
    if (chunk.n === 0 || chunk.json === null || chunk.last === null) break;
    chunks.push(chunk.json);
    read += chunk.n;
    after = chunk.last;
  }
  return `{"count":${count},"truncated":${count > read},"features":[${chunks.join(',')}]}`;
}

export async function deleteAnalysis(deps: Deps, ctx: Ctx, id: string): Promise<void> {
  const { actor, tenantId } = authorize(ctx, analysesPolicy, 'manage');
  const scope = scopeOf(actor);
  const a = authorizeRow(ctx, analysesPolicy, 'manage', await withScope(deps.db, scope, (tx) => q.findAnalysis(tx, tenantId, id)), rowTenant);
  // Rows first, in bounded statements (a single cascading delete of 100k rows would hold PGlite too long).
  await clearRows(deps, tenantId, id, tuningFor(deps.database.kind).writeRows);
  const key = await withScope(deps.db, scope, async (tx) => {
    await q.deleteAnalysisRow(tx, tenantId, id);
    const storageKey = a.source_file_id ? await q.deleteSourceFile(tx, tenantId, a.source_file_id) : null;
    await recordActivity(tx, ctx, { action: 'Delete', description: `${actor.name} deleted the custom analysis ${a.name}` });
    return storageKey;
  });
  if (key) await removeQuietly(deps, key);
  await removeQuietly(deps, stagedKey(tenantId, id));
}

/**
 * The reference layers asked for (issue 29), de-duplicated in the order given: each must be one the tenant may use (the
 * provider's or its own, with a version in use); another tenant's gets the same answer as one that does not exist.
 */
async function chosenLayers(
  tx: Executor,
  tenantId: string,
  ids: readonly string[],
): Promise<Array<{ id: string; name: string; kind: ReferenceLayerKind; owner: 'provider' | 'tenant' }>> {
  const wanted = [...new Set(ids.map((x) => x.toLowerCase()))];
  if (wanted.length === 0) return [];
  if (wanted.length > MAX_ANALYSIS_LAYERS) throw problems.field('reference_layer_ids', `Choose at most ${MAX_ANALYSIS_LAYERS} reference layers`);
  const found = new Map((await layersInUse(tx, tenantId, wanted)).map((l) => [l.id, l]));
  const missing = wanted.filter((x) => !found.has(x));
  if (missing.length > 0)
    throw problems.field('reference_layer_ids', `Not a loaded reference layer of yours or the provider's: ${missing.slice(0, 5).join(', ')}`);
  return wanted.map((x) => {
    const l = found.get(x)!;
    return { id: l.id, name: l.name, kind: l.kind, owner: l.owner };
  });
}

/** A file left behind costs only space: its removal failing is logged, and does not fail what already happened. */
async function removeQuietly(deps: Deps, key: string): Promise<void> {
  await deps.storage.remove(key).catch((err: unknown) => deps.log.warn({ err, key }, 'could not remove a stored file (left behind)'));
}

/** Field errors of a zod issue list (the JSON payload), named as the console expects. */
export function fieldErrors(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): FieldError[] {
  return issues.map((i) => ({ field: i.path.map(String).join('.') || 'body', message: i.message }));
}
