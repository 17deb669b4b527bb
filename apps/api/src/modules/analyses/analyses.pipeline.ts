// The analysis job: staged rows → classified rows (batches sized by time), overlap groups (analyses.overlap.ts), then
// the totals, each step in short transactions so that no statement holds a connection for long (PGlite has only one:
// other requests' statements run between the analysis's). A row the database refuses becomes that row's error; the
// batch is halved until the row is found. A run claims its analysis and beats, so that a crashed run is recognised.
// A retry first removes what an interrupted attempt wrote; readers see rows only once the status is 'completed'.
import crypto from 'node:crypto';
import type { Deps } from '../../context.js';
import { withScope, type Executor } from '../../db/client.js';
import { recordWebhookEvent } from '../webhooks/webhooks.events.js';
import { sqlState } from '../../db/errors.js';
import { RowBoxes } from './analyses.box-index.js';
import { defaultOverlapBounds, findOverlapGroups, yieldConnection, type OverlapBounds, type OverlapResult } from './analyses.overlap.js';
import * as q from './analyses.queries.js';
import * as qr from './analyses.run.queries.js';
import * as qo from './analyses.overlap.queries.js';
import { STAGE_LINE_ROWS, type StagedRow } from './analyses.rows.js';
import { screenAnalysisRows } from './analyses.layers.js';

export type PipelineTuning = {
  /** Staged rows per classify statement. */
  batchRows: number;
  /** Statements in flight at once (PostgreSQL has a pool and cores; PGlite is one connection). */
  concurrency: number;
  /** Rows of the "a" side per overlap statement. */
  overlapRange: number;
  /** Rows per delete / group-update statement. */
  writeRows: number;
  /** Target wall time of one classify statement (ms); batches grow or shrink towards it. */
  batchMs?: number;
};

export function tuningFor(kind: 'pglite' | 'postgres'): PipelineTuning {
  return kind === 'pglite'
    ? { batchRows: 500, concurrency: 1, overlapRange: 2000, writeRows: 2000, batchMs: 80 }
    : { batchRows: 1000, concurrency: 2, overlapRange: 5000, writeRows: 10000 };
}

export const stagedKey = (tenantId: string, analysisId: string) => `${tenantId}/analysis_staged/${analysisId}.ndjson`;

/**
 * The lines of staged NDJSON read in a stream (each a JSON array of up to STAGE_LINE_ROWS rows), as Buffers: pieces of
 * the stored file are split at newlines as they arrive, so the file is never whole in memory (a million rows stage to
 * hundreds of MB). Empty lines (and "[]") are skipped.
 */
export async function* stagedLines(pieces: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let rest: Buffer | null = null;
  for await (const piece of pieces) {
    let buf: Buffer = rest ? Buffer.concat([rest, piece]) : piece;
    rest = null;
    let start = 0;
    for (;;) {
      const end = buf.indexOf(0x0a, start);
      if (end < 0) break;
      if (end - start > 2) yield buf.subarray(start, end);
      start = end + 1;
    }
    if (start < buf.length) rest = Buffer.from(buf.subarray(start));
    buf = Buffer.alloc(0);
  }
  if (rest && rest.length > 2) yield rest;
}

/** The statement payload of some staged lines: one JSON array of their rows. */
export const batchText = (lines: readonly Buffer[]): string => `[${lines.map((l) => l.toString('utf8', 1, l.length - 1)).join(',')}]`;

/** The staged lines of a buffer (the benchmark's EXPLAIN reads one batch). */
export function linesOf(staged: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let start = 0; start < staged.length;) {
    let end = staged.indexOf(0x0a, start);
    if (end < 0) end = staged.length;
    if (end - start > 2) out.push(staged.subarray(start, end));
    start = end + 1;
  }
  return out;
}

/** Removes every row of the analysis in bounded statements (retry cleanup, failure, deletion). */
export async function clearRows(deps: Deps, tenantId: string, id: string, writeRows: number): Promise<void> {
  const scope = { kind: 'tenant', tenantId } as const;
  const max = await withScope(deps.db, scope, async (tx) => {
    await qo.deleteOverlapPairs(tx, tenantId, id);
    return qr.maxRowNumber(tx, tenantId, id);
  });
  for (let from = 1; from <= max; from += writeRows) {
    await withScope(deps.db, scope, (tx) => qr.deleteRowsRange(tx, tenantId, id, from, from + writeRows));
  }
}

export type RunResult = 'completed' | 'missing' | 'skipped';

export type RunHooks = {
  onPhase?: (phase: string, ms: number) => void;
  /** Each statement's wall time (on PGlite: how long it held the one connection). */
  onStatement?: (ms: number) => void;
  /** Overlap-step bounds (tests use small ones to reach the crowded paths with few rows). */
  overlap?: OverlapBounds;
  /** What the overlap step did (crowded rows, rows it could not settle). */
  onOverlap?: (r: OverlapResult) => void;
};

/** An error caused by the data of a statement (a value PostGIS or PostgreSQL refuses), not by the database itself. */
export function isDataError(err: unknown): boolean {
  const code = sqlState(err);
  return code !== null && (code.startsWith('22') || code === 'XX000');
}

const messageOf = (err: unknown): string => {
  for (let e: unknown = err, depth = 0; e && depth < 5; depth++) {
    const c = (e as { cause?: unknown }).cause;
    if (!c) return e instanceof Error ? e.message : String(e);
    e = c;
  }
  return String(err);
};

/** A staged row PostgreSQL or PostGIS refused: stored as a row error with the database's reason, without its polygon. */
function rejectedRow(row: StagedRow, err: unknown): StagedRow {
  const why = messageOf(err).replace(/\s+/g, ' ').slice(0, 200);
  return {
    n: row.n,
    name: row.name,
    wkb: null,
    oa: null,
    rd: row.rd,
    errs: [
      ...(row.errs ?? []),
      { field: 'farm_coordinates', code: 'geometry_rejected', message: `farm_coordinates: the database refused this polygon: ${why}` },
    ],
    ...(row.wa ? { wa: row.wa } : {}),
  };
}

/** Seconds between heartbeats of a running analysis (a run is taken for dead after ANALYSIS_STALE_RUN_SECONDS without one). */
export const HEARTBEAT_SECONDS = 5;

class LostClaim extends Error {}

export async function runAnalysis(deps: Deps, tenantId: string, id: string, tuning = tuningFor(deps.database.kind), hooks: RunHooks = {}): Promise<RunResult> {
  const scope = { kind: 'tenant', tenantId } as const;
  // rows: a statement that writes the analysis's rows commits without waiting for the disk (asyncCommit): the run's
  // completion, a durable commit, flushes them all first, and a database crash before it leaves the run processing, to be
  // retried from scratch. The analysis's own row (claim, heartbeats, completion) is written durably.
  const run = async <T>(fn: Parameters<typeof withScope<T>>[2], rows = false): Promise<T> => {
    const t0 = performance.now();
    const out = await withScope(deps.db, scope, fn, { asyncCommit: rows });
    hooks.onStatement?.(performance.now() - t0);
    await yieldConnection(deps);
    return out;
  };
  let t = performance.now();
  const phase = (name: string) => {
    const now = performance.now();
    hooks.onPhase?.(name, now - t);
    t = now;
  };

  const a = await run((tx) => q.findAnalysis(tx, tenantId, id));
  if (!a) return 'missing';
  if (a.status === 'completed' || a.status === 'failed') return 'skipped';
  const runId = crypto.randomUUID();
  // Only one run holds an analysis; a second delivery of the job (a retry after a crash was requeued) skips.
  if (!(await run((tx) => qr.claimRun(tx, tenantId, id, runId, deps.config.analysisStaleRunSeconds)))) return 'skipped';
  let lost = false;
  const step = async (name: string) => {
    if (!(await run((tx) => qr.beat(tx, tenantId, id, runId, name)))) lost = true;
    if (lost) throw new LostClaim('this run no longer holds the analysis');
  };
  const heartbeat = setInterval(() => {
    void run((tx) => qr.beat(tx, tenantId, id, runId))
      .then((ok) => {
        if (!ok) lost = true;
      })
      .catch(() => undefined);
  }, HEARTBEAT_SECONDS * 1000);
  heartbeat.unref();
  try {
    await clearRows(deps, tenantId, id, tuning.writeRows);
    const [areas, tenantAreas] = await run(
      async (tx) => [(await q.analysisAreas(tx, tenantId, id)).map((x) => x.id), await q.tenantAreaIds(tx, tenantId)] as const,
    );
    const chosen = new Set(areas);
    const staged = await deps.storage.read(stagedKey(tenantId, id));
    if (!staged) throw new Error('The staged rows of this analysis are missing');
    // Read as the batches are classified: lanes pull lines from one reader (an async generator queues their calls).
    const lines = stagedLines(staged);
    const lineCount = Math.max(1, Math.ceil(a.total_uploaded_data_count / STAGE_LINE_ROWS));
    let exhausted = false;
    const take = async (n: number): Promise<Buffer[]> => {
      const out: Buffer[] = [];
      while (out.length < n && !exhausted) {
        const r = await lines.next();
        if (r.done) exhausted = true;
        else out.push(r.value);
      }
      return out;
    };
    phase('prepare');
    await step('classify');

    const params: qr.ClassifyParams = {
      analysisId: id,
      allAreas: tenantAreas.every((x) => chosen.has(x)),
      minimumFarmSize: a.minimum_farm_size,
      requireRecognition: a.require_farm_recognition,
      threshold: a.recognition_threshold,
    };
    const sum = { within: 0, outside: 0, errors: 0, unrecognized: 0, warned: 0, area: 0 };
    // The overlap step's input, reported by the classify statements (analyses.box-index.ts).
    const boxes = new RowBoxes();
    const twins: Array<[number, number]> = [];
    const add = (s: qr.ClassifyResult) => {
      sum.within += s.within;
      sum.outside += s.outside;
      sum.errors += s.errors;
      sum.unrecognized += s.unrecognized;
      sum.warned += s.warned;
      sum.area += s.area;
      const { rn, x0, y0, x1, y1, tn, td } = s;
      if (rn && x0 && y0 && x1 && y1) for (let i = 0; i < rn.length; i++) boxes.add(rn[i]!, x0[i]!, y0[i]!, x1[i]!, y1[i]!);
      if (tn && td) for (let i = 0; i < tn.length; i++) twins.push([tn[i]!, td[i]!]);
    };
    /** Classifies rows; a batch a row of which the database refuses is halved until that row is found and reported. */
    const classify = async (text: string, rows?: StagedRow[]): Promise<void> => {
      try {
        add(await run((tx) => qr.classifyBatch(tx, tenantId, params, text), true));
      } catch (err) {
        if (!isDataError(err)) throw err;
        const list = rows ?? (JSON.parse(text) as StagedRow[]);
        if (list.length === 1) {
          add(await run((tx) => qr.classifyBatch(tx, tenantId, params, JSON.stringify([rejectedRow(list[0]!, err)])), true));
          return;
        }
        const half = Math.ceil(list.length / 2);
        for (const part of [list.slice(0, half), list.slice(half)]) await classify(JSON.stringify(part), part);
      }
    };
    // Batches are sized by time: a batch of heavy polygons shrinks so that no statement holds the connection long.
    // The first statement starts small: it pays the engine's cold start (plans, PostGIS's spheroid set-up) on top.
    let perBatch = 1;
    let done = 0;
    let lastProgress = 0;
    const lane = async () => {
      while (!exhausted && !lost) {
        const batch = await take(perBatch);
        if (batch.length === 0) break;
        const t0 = performance.now();
        await classify(batchText(batch));
        const ms = Math.max(1, performance.now() - t0);
        const base = Math.max(1, Math.round(tuning.batchRows / STAGE_LINE_ROWS));
        perBatch = Math.max(1, Math.min(base, Math.round(batch.length * Math.min(2, Math.max(0.25, (tuning.batchMs ?? 100) / ms)))));
        done += batch.length;
        const progress = Math.min(80, Math.floor((done / lineCount) * 80));
        if (progress >= lastProgress + 10) {
          lastProgress = progress;
          await run((tx) => qr.setProgress(tx, tenantId, id, progress));
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(tuning.concurrency, lineCount)) }, lane));
    if (lost) throw new LostClaim('this run no longer holds the analysis');
    const total = sum.within + sum.outside + sum.errors;
    phase('classify');
    await step('overlaps');

    const overlap = await findOverlapGroups(deps, tenantId, id, total, { boxes, twins }, hooks.overlap ?? defaultOverlapBounds, hooks.onStatement, {
      minAreaSqm: Number(a.overlap_min_area_sqm),
      minShare: Number(a.overlap_min_share),
    });
    hooks.onOverlap?.(overlap);
    await run((tx) => qr.setProgress(tx, tenantId, id, 90));
    phase('overlaps');
    await step('groups');

    // Sorted by row number, so that each chunk spans a short range of rows (setOverlapGroups sends a dense array over it);
    // chunks are sized by time like every other statement of the run.
    const list = overlap.groups;
    let chunk = Math.max(100, Math.round(tuning.writeRows / 2));
    for (let i = 0; i < list.length;) {
      const part = list.slice(i, i + chunk);
      const t0 = performance.now();
      await run((tx) => q.setOverlapGroups(tx, tenantId, id, part), true);
      const ms = Math.max(1, performance.now() - t0);
      chunk = Math.max(100, Math.min(tuning.writeRows, Math.round(part.length * Math.min(2, Math.max(0.25, (tuning.batchMs ?? 100) / ms)))));
      i += part.length;
    }
    phase('groups');

    // Issue 29: each analysed row against the chosen reference layers (none chosen: nothing to do, no statement).
    if (await run((tx) => qr.hasLayers(tx, tenantId, id))) {
      await step('layers');
      const maxRow = await run((tx) => qr.maxRowNumber(tx, tenantId, id));
      await screenAnalysisRows(run, tenantId, id, maxRow, tuning, () => {
        if (lost) throw new LostClaim('this run no longer holds the analysis');
      });
      phase('layers');
    }

    // Rows the overlap step turned into errors change the totals: count them from the table then.
    const totals = overlap.tooDense > 0 ? await run((tx) => q.rowTotals(tx, tenantId, id)) : sum;
    await run(async (tx) => {
      const summary = { total, ...totals, overlapping: list.length };
      // The webhook event is written with the completion, in its transaction (the outbox: modules/webhooks).
      if (await q.completeAnalysisRun(tx, tenantId, id, runId, summary)) {
        await recordWebhookEvent(tx, tenantId, 'analysis.completed', {
          analysis_id: id,
          name: a.name,
          status: 'completed',
          total_rows: summary.total,
          within_count: summary.within,
          outside_count: summary.outside,
          error_count: summary.errors,
          overlapping_count: summary.overlapping,
          unrecognized_count: summary.unrecognized,
          warning_count: summary.warned,
          total_area_sqm: summary.area,
        });
      }
    });
    await deps.storage
      .remove(stagedKey(tenantId, id))
      .catch((err: unknown) => deps.log.warn({ err, analysisId: id }, 'could not remove the staged rows (left behind)'));
    phase('complete');
    return 'completed';
  } catch (err) {
    if (err instanceof LostClaim) return 'skipped';
    throw err;
  } finally {
    clearInterval(heartbeat);
  }
}

/** Marks the analysis failed and, when this call failed it, records the analysis.failed webhook event in the same transaction. */
export async function failAndNotify(tx: Executor, tenantId: string, id: string, reason: string, onlyStaleAfter: number | null = null): Promise<void> {
  const failed = await q.failAnalysis(tx, tenantId, id, reason.slice(0, 500), onlyStaleAfter);
  if (failed) {
    await recordWebhookEvent(tx, tenantId, 'analysis.failed', { analysis_id: id, name: failed.name, status: 'failed', failure_reason: failed.failure_reason });
  }
}

/** After the last attempt failed (or the run crashed twice): no rows stay behind, the status says failed. */
export async function failAnalysisRun(deps: Deps, tenantId: string, id: string, reason: string, onlyStale = false): Promise<void> {
  const scope = { kind: 'tenant', tenantId } as const;
  if (onlyStale) {
    await withScope(deps.db, scope, (tx) => failAndNotify(tx, tenantId, id, reason, deps.config.analysisStaleRunSeconds));
    const a = await withScope(deps.db, scope, (tx) => q.findAnalysis(tx, tenantId, id));
    if (a?.status !== 'failed') return;
  }
  await clearRows(deps, tenantId, id, tuningFor(deps.database.kind).writeRows);
  await withScope(deps.db, scope, (tx) => failAndNotify(tx, tenantId, id, reason));
  // A failed analysis is never run again: its staged rows (hundreds of MB for a large upload) go now, not at deletion.
  await deps.storage
    .remove(stagedKey(tenantId, id))
    .catch((err: unknown) => deps.log.warn({ err, analysisId: id }, 'could not remove the staged rows (left behind)'));
}

/** An attempt failed and will be retried by the queue: the analysis goes back to queued, keeping the first reason. */
export async function releaseAnalysisRun(deps: Deps, tenantId: string, id: string, reason: string): Promise<void> {
  await withScope(deps.db, { kind: 'tenant', tenantId }, (tx) => qr.releaseRun(tx, tenantId, id, reason.slice(0, 500)));
}
