// The analysis job: staged rows → classified rows (batches), overlap pairs (row ranges) → connected groups, then the
// totals, each step in short transactions so that no statement holds a connection for long (PGlite has only one: other
// requests' statements run between the analysis's).
// A retry first removes what an interrupted attempt wrote; readers see rows only once the status is 'completed'.
import type { Deps } from '../../context.js';
import { withScope } from '../../db/client.js';
import { componentsOf } from '../../lib/union-find.js';
import * as q from './analyses.queries.js';
import { STAGE_LINE_ROWS } from './analyses.rows.js';

export type PipelineTuning = {
  /** Staged rows per classify statement. */
  batchRows: number;
  /** Statements in flight at once (PostgreSQL has a pool and cores; PGlite is one connection). */
  concurrency: number;
  /** Rows of the "a" side per overlap statement. */
  overlapRange: number;
  /** Rows per delete / group-update statement. */
  writeRows: number;
};

export function tuningFor(kind: 'pglite' | 'postgres'): PipelineTuning {
  return kind === 'pglite'
    ? { batchRows: 500, concurrency: 1, overlapRange: 2000, writeRows: 2000 }
    : { batchRows: 1000, concurrency: 2, overlapRange: 5000, writeRows: 10000 };
}

export const stagedKey = (tenantId: string, analysisId: string) => `${tenantId}/analysis_staged/${analysisId}.ndjson`;

/**
 * Staged NDJSON → statement payloads, lazily: each line is a JSON array of STAGE_LINE_ROWS rows; k lines join into one
 * array text. Only line offsets are computed up front (Buffer.indexOf, native); each batch is decoded when its statement
 * is built, so the main thread never decodes, splits or joins the whole file (tens of MB) in one go.
 */
export function batchesOf(staged: Buffer, linesPerBatch: number): Array<() => string> {
  const lines: Array<[number, number]> = [];
  for (let start = 0; start < staged.length; ) {
    let end = staged.indexOf(0x0a, start);
    if (end < 0) end = staged.length;
    if (end - start > 2) lines.push([start, end]);
    start = end + 1;
  }
  const out: Array<() => string> = [];
  for (let i = 0; i < lines.length; i += linesPerBatch) {
    const group = lines.slice(i, i + linesPerBatch);
    out.push(() => `[${group.map(([s, e]) => staged.toString('utf8', s + 1, e - 1)).join(',')}]`);
  }
  return out;
}

/** Runs fn over items with at most `limit` in flight, in order of start. */
async function eachLimited<T>(items: T[], limit: number, fn: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
}

/** Union-find over row numbers; groups numbered 1, 2, … in order of their smallest row number (stable under translation). */
export function overlapGroups(pairs: Array<{ a: number; b: number }>): Map<number, number> {
  const roots = componentsOf(pairs.map(({ a, b }) => [a, b] as const));
  const number = new Map([...new Set(roots.values())].sort((x, y) => x - y).map((r, i) => [r, i + 1]));
  const out = new Map<number, number>();
  for (const [n, root] of roots) out.set(n, number.get(root)!);
  return out;
}

/** Removes every row of the analysis in bounded statements (retry cleanup, failure, deletion). */
export async function clearRows(deps: Deps, tenantId: string, id: string, writeRows: number): Promise<void> {
  const scope = { kind: 'tenant', tenantId } as const;
  const max = await withScope(deps.db, scope, (tx) => q.maxRowNumber(tx, tenantId, id));
  for (let from = 1; from <= max; from += writeRows) {
    await withScope(deps.db, scope, (tx) => q.deleteRowsRange(tx, tenantId, id, from, from + writeRows));
  }
}

export type RunResult = 'completed' | 'missing' | 'skipped';

export type RunHooks = {
  onPhase?: (phase: string, ms: number) => void;
  /** Each statement's wall time (on PGlite: how long it held the one connection). */
  onStatement?: (ms: number) => void;
};

export async function runAnalysis(deps: Deps, tenantId: string, id: string, tuning = tuningFor(deps.database.kind), hooks: RunHooks = {}): Promise<RunResult> {
  const scope = { kind: 'tenant', tenantId } as const;
  const run = async <T>(fn: Parameters<typeof withScope<T>>[2]): Promise<T> => {
    const t0 = performance.now();
    const out = await withScope(deps.db, scope, fn);
    hooks.onStatement?.(performance.now() - t0);
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
  if (a.status === 'completed') return 'skipped';
  await run((tx) => q.markProcessing(tx, tenantId, id));
  await clearRows(deps, tenantId, id, tuning.writeRows);
  const [areas, tenantAreas] = await run(async (tx) => [(await q.analysisAreas(tx, tenantId, id)).map((x) => x.id), await q.tenantAreaIds(tx, tenantId)] as const);
  const chosen = new Set(areas);
  const staged = await deps.storage.get(stagedKey(tenantId, id));
  if (!staged) throw new Error('The staged rows of this analysis are missing');
  const batches = batchesOf(staged, Math.max(1, Math.round(tuning.batchRows / STAGE_LINE_ROWS)));
  phase('prepare');

  const params: q.ClassifyParams = {
    analysisId: id,
    allAreas: tenantAreas.every((x) => chosen.has(x)),
    minimumFarmSize: a.minimum_farm_size,
    requireRecognition: a.require_farm_recognition,
    threshold: a.recognition_threshold,
  };
  const sum = { within: 0, outside: 0, errors: 0, unrecognized: 0, area: 0 };
  let done = 0;
  let lastProgress = 0;
  await eachLimited(batches, tuning.concurrency, async (batch) => {
    const text = batch();
    const s = await run((tx) => q.classifyBatch(tx, tenantId, params, text));
    sum.within += s.within;
    sum.outside += s.outside;
    sum.errors += s.errors;
    sum.unrecognized += s.unrecognized;
    sum.area += s.area;
    done++;
    const progress = Math.floor((done / batches.length) * 80);
    if (progress >= lastProgress + 10) {
      lastProgress = progress;
      await run((tx) => q.setProgress(tx, tenantId, id, progress));
    }
  });
  const total = sum.within + sum.outside + sum.errors;
  phase('classify');

  const ranges: Array<[number, number]> = [];
  for (let from = 1; from <= total; from += tuning.overlapRange) ranges.push([from, from + tuning.overlapRange]);
  const pairs: Array<{ a: number; b: number }> = [];
  await eachLimited(ranges, tuning.concurrency, async ([from, to]) => {
    pairs.push(...(await run((tx) => q.overlapPairsInRange(tx, tenantId, id, from, to))));
  });
  await run((tx) => q.setProgress(tx, tenantId, id, 90));
  phase('overlaps');

  const groups = overlapGroups(pairs);
  // Sorted by row number, so that each chunk spans a short range of rows (setOverlapGroups sends a dense array over it).
  const list = [...groups].map(([n, g]) => ({ n, g })).sort((x, y) => x.n - y.n);
  const chunks: Array<typeof list> = [];
  for (let i = 0; i < list.length; i += tuning.writeRows) chunks.push(list.slice(i, i + tuning.writeRows));
  await eachLimited(chunks, tuning.concurrency, async (chunk) => run((tx) => q.setOverlapGroups(tx, tenantId, id, chunk)));
  phase('groups');

  await run((tx) => q.completeAnalysis(tx, tenantId, id, { total, ...sum, overlapping: groups.size }));
  await deps.storage.remove(stagedKey(tenantId, id)).catch(() => undefined);
  phase('complete');
  return 'completed';
}

/** After the last attempt failed (or the job was dead-lettered): no rows stay behind, the status says failed. */
export async function failAnalysisRun(deps: Deps, tenantId: string, id: string, reason: string): Promise<void> {
  await clearRows(deps, tenantId, id, tuningFor(deps.database.kind).writeRows);
  await withScope(deps.db, { kind: 'tenant', tenantId }, (tx) => q.failAnalysis(tx, tenantId, id, reason.slice(0, 500)));
}
