// The analysis job: staged rows → classified rows (batches), overlap pairs (row ranges) → connected groups, then the
// totals, each step in short transactions so that PGlite never holds the event loop or the connection for long.
// A retry first removes what an interrupted attempt wrote; readers see rows only once the status is 'completed'.
import type { Deps } from '../../context.js';
import { withScope } from '../../db/client.js';
import * as q from './analyses.queries.js';

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
    ? { batchRows: 250, concurrency: 1, overlapRange: 1500, writeRows: 2000 }
    : { batchRows: 1000, concurrency: 2, overlapRange: 5000, writeRows: 10000 };
}

export const stagedKey = (tenantId: string, analysisId: string) => `${tenantId}/analysis_staged/${analysisId}.ndjson`;

/** Staged NDJSON → statement payloads: each line is a JSON array of ~250 rows; k lines join into one array text. */
export function batchesOf(ndjson: string, linesPerBatch: number): string[] {
  const lines = ndjson.split('\n').filter((l) => l.length > 2);
  const out: string[] = [];
  for (let i = 0; i < lines.length; i += linesPerBatch) {
    out.push(`[${lines.slice(i, i + linesPerBatch).map((l) => l.slice(1, -1)).join(',')}]`);
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
  const parent = new Map<number, number>();
  const find = (x: number): number => {
    let r = x;
    while (parent.get(r) !== r) r = parent.get(r)!;
    let c = x;
    while (c !== r) {
      const nx = parent.get(c)!;
      parent.set(c, r);
      c = nx;
    }
    return r;
  };
  for (const { a, b } of pairs) {
    if (!parent.has(a)) parent.set(a, a);
    if (!parent.has(b)) parent.set(b, b);
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent.set(Math.max(ra, rb), Math.min(ra, rb));
  }
  const roots = [...new Set([...parent.keys()].map(find))].sort((x, y) => x - y);
  const number = new Map(roots.map((r, i) => [r, i + 1]));
  const out = new Map<number, number>();
  for (const n of parent.keys()) out.set(n, number.get(find(n))!);
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

export type RunHooks = { onPhase?: (phase: string, ms: number) => void };

export async function runAnalysis(deps: Deps, tenantId: string, id: string, tuning = tuningFor(deps.database.kind), hooks: RunHooks = {}): Promise<RunResult> {
  const scope = { kind: 'tenant', tenantId } as const;
  const run = <T>(fn: Parameters<typeof withScope<T>>[2]) => withScope(deps.db, scope, fn);
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
  const areas = (await run((tx) => q.analysisAreas(tx, tenantId, id))).map((x) => x.id);
  const staged = await deps.storage.get(stagedKey(tenantId, id));
  if (!staged) throw new Error('The staged rows of this analysis are missing');
  const batches = batchesOf(staged.toString('utf8'), Math.max(1, Math.round(tuning.batchRows / 250)));
  phase('prepare');

  const params: q.ClassifyParams = {
    analysisId: id,
    areaIds: areas,
    minimumFarmSize: a.minimum_farm_size,
    requireRecognition: a.require_farm_recognition,
    threshold: a.recognition_threshold,
  };
  const sum = { within: 0, outside: 0, errors: 0, unrecognized: 0, area: 0 };
  let done = 0;
  let lastProgress = 0;
  await eachLimited(batches, tuning.concurrency, async (batch) => {
    const s = await run((tx) => q.classifyBatch(tx, tenantId, params, batch));
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
  const list = [...groups].map(([n, g]) => ({ n, g }));
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
