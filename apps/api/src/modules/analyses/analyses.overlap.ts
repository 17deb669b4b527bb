// The overlap step of a custom analysis: connected groups of rows whose interiors share area, with work and memory
// bounded by the rows, never by the pairs. An upload that repeats one polygon 75,000 times has 2.8 billion pairs; this
// step must finish it in seconds, and must not hold the embedded database's one connection for long at a time.
//
// 1. Exact twins (same polygon bytes, found while staging) never enter the probe index: a twin overlaps its first copy
//    and shares its group.
// 2. Stage 1: each representative looks at no more than `limit` other rows by bounding box (either direction) and tests
//    the later ones. Rows with more candidates ("crowded") keep up to 4 overlaps among those seen. Every pair whose
//    first row is not crowded is tested here, exactly.
// 3. Stage 2, only when some rows were crowded: the pairs whose first row was crowded and were not tested. Crowded rows
//    are marked with their provisional group (and get their own small index); a pair already inside one group needs no
//    test. When all crowded rows are in one group, nothing is left to test. Otherwise each row looks at no more than
//    `denseLimit` crowded candidates; a row with more cannot be settled and becomes a row error (overlap_too_dense), and
//    the step runs again without it, so no group is ever joined through an unchecked row.
// Statements are sized by time: a range of rows shrinks or grows so that each holds the connection ~100 ms.
import type { Deps } from '../../context.js';
import { withScope, type Tx } from '../../db/client.js';
import * as q from './analyses.queries.js';

export type OverlapBounds = {
  /** Candidates (by bounding box) one row looks at in stage 1. */
  limit: number;
  /** Crowded candidates one row looks at in stage 2. */
  denseLimit: number;
  /** Target wall time of one statement (ms). */
  targetMs: number;
  /** First range size (rows per statement); adapted to targetMs afterwards. */
  firstRange: number;
  /**
   * Stage 1 statements in flight at once (PostgreSQL has a pool and cores; PGlite one connection): the ranges are
   * independent, and the groups are joined in this thread whatever the order they come back in.
   */
  concurrency?: number;
};

export const defaultOverlapBounds: OverlapBounds = { limit: 96, denseLimit: 256, targetMs: 80, firstRange: 100 };

/** Union-find over row numbers 1..n in typed arrays (8 bytes a row; no per-pair memory). */
export class RowUnion {
  private readonly parent: Int32Array;
  private readonly size: Int32Array;

  constructor(n: number) {
    this.parent = new Int32Array(n + 1);
    this.size = new Int32Array(n + 1).fill(1);
    for (let i = 0; i <= n; i++) this.parent[i] = i;
  }

  find(x: number): number {
    let r = x;
    while (this.parent[r] !== r) r = this.parent[r]!;
    while (this.parent[x] !== r) {
      const next = this.parent[x]!;
      this.parent[x] = r;
      x = next;
    }
    return r;
  }

  union(a: number, b: number): void {
    let ra = this.find(a);
    let rb = this.find(b);
    if (ra === rb) return;
    if (this.size[ra]! < this.size[rb]!) [ra, rb] = [rb, ra];
    this.parent[rb] = ra;
    this.size[ra]! += this.size[rb]!;
  }

  /**
   * Rows in groups of two or more, with the group's number: 1, 2, … in order of the group's smallest row number (so
   * numbers do not depend on the order in which pairs were found). Sorted by row number.
   */
  groups(): Array<{ n: number; g: number; size: number }> {
    const number = new Map<number, number>();
    const out: Array<{ n: number; g: number; size: number }> = [];
    for (let i = 1; i < this.parent.length; i++) {
      const r = this.find(i);
      const size = this.size[r]!;
      if (size < 2) continue;
      let g = number.get(r);
      if (g === undefined) {
        g = number.size + 1;
        number.set(r, g);
      }
      out.push({ n: i, g, size });
    }
    return out;
  }
}

/**
 * On PGlite (one connection, statements served in arrival order) a short pause after each analysis statement lets a
 * request's next statement in first: a request of three statements then waits behind one analysis statement, not three.
 */
export async function yieldConnection(deps: Deps): Promise<void> {
  if (deps.database.kind === 'pglite') await new Promise((r) => setTimeout(r, 2));
}

type Run = <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>;

/**
 * Walks [1, total] in ranges whose size adapts so that each statement takes about targetMs; with lanes > 1, that many
 * ranges are in flight at once (each lane takes the next range when its own ends).
 */
async function eachRange(total: number, b: OverlapBounds, fn: (from: number, to: number) => Promise<void>, lanes = 1): Promise<void> {
  let size = b.firstRange;
  let next = 1;
  const lane = async () => {
    while (next <= total) {
      const from = next;
      const to = Math.min(total + 1, from + size);
      next = to;
      const t0 = performance.now();
      await fn(from, to);
      const ms = Math.max(1, performance.now() - t0);
      size = Math.max(16, Math.min(20_000, Math.round((to - from) * Math.min(4, Math.max(0.25, b.targetMs / ms)))));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, lanes) }, lane));
}

/** Walks a list in slices whose size adapts to targetMs, like eachRange. */
async function eachSlice<T>(items: T[], b: OverlapBounds, fn: (slice: T[]) => Promise<void>): Promise<void> {
  let size = Math.max(16, Math.round(b.firstRange / 4));
  for (let i = 0; i < items.length; ) {
    const slice = items.slice(i, i + size);
    const t0 = performance.now();
    await fn(slice);
    const ms = Math.max(1, performance.now() - t0);
    size = Math.max(16, Math.min(5_000, Math.round(size * Math.min(4, Math.max(0.25, b.targetMs / ms)))));
    i += slice.length;
  }
}

export type OverlapResult = { groups: Array<{ n: number; g: number; size: number }>; tooDense: number; crowded: number };

async function onePass(run: Run, tenantId: string, id: string, total: number, b: OverlapBounds): Promise<{ uf: RowUnion; unsettled: number[]; crowded: number[] }> {
  const uf = new RowUnion(total);
  const crowded: number[] = [];
  await eachRange(
    total,
    b,
    async (from, to) => {
      const rows = await run((tx) => q.overlapProbe(tx, tenantId, id, from, to, b.limit));
      for (const r of rows) {
        if (r.n > b.limit) crowded.push(r.a);
        for (const x of r.hits ?? []) uf.union(r.a, x);
      }
    },
    b.concurrency,
  );
  // Ranges may come back out of order: the crowded rows are kept sorted (stage 2 walks them in order).
  crowded.sort((x, y) => x - y);
  if (crowded.length === 0) return { uf, unsettled: [], crowded };

  const crowdedSet = new Set(crowded);
  const unsettled = new Set<number>();
  /** Tests the candidates of `rows` among the crowded rows that lie in another group (and pass `keep`). */
  const settle = async (rows: number[], limit: number, keep: (a: number, b: number) => boolean) => {
    await eachSlice(rows, b, async (slice) => {
      const cands = await run((tx) => q.denseCandidates(tx, tenantId, id, slice, limit));
      const pairs: Array<[number, number]> = [];
      for (const c of cands) {
        if (c.n > limit) unsettled.add(c.a);
        else if (keep(c.a, c.b) && uf.find(c.a) !== uf.find(c.b)) pairs.push([c.a, c.b]);
      }
      if (pairs.length > 0) for (const p of await run((tx) => q.overlapPairsOf(tx, tenantId, id, pairs))) uf.union(p.a, p.b);
    });
  };

  // Stage 2a concerns the non-crowded rows outside the crowded rows' group when they are all in one (every row, else);
  // when there is none and one group holds every crowded row, nothing is left to test and nothing is written.
  const groupOf = () => new Set(crowded.map((x) => uf.find(x)));
  const only = groupOf().size === 1 ? [...groupOf()][0]! : null;
  const later: number[] = [];
  await eachRange(total, b, async (from, to) => {
    const reps = await run((tx) => q.representativesInRange(tx, tenantId, id, from, to));
    for (const n of reps) if (!crowdedSet.has(n) && (only === null || uf.find(n) !== only)) later.push(n);
  });
  if (only !== null && later.length === 0) return { uf, unsettled: [], crowded };

  await eachSlice(crowded, b, async (slice) => run((tx) => q.setDenseGroups(tx, tenantId, id, slice.map((n) => ({ n, g: uf.find(n) })))));
  try {
    // Stage 2a: a crowded row and a non-crowded one after it (stage 1 tested the pairs whose first row was not crowded).
    // A non-crowded row has at most `limit` candidates in all, so this probe can never be cut short.
    await settle(later, b.limit, (y, x) => x < y);
    // Stage 2b: two crowded rows in different groups; a crowded row with more crowded candidates than denseLimit
    // cannot be settled.
    if (groupOf().size > 1) await settle(crowded, b.denseLimit, () => true);
  } finally {
    await eachSlice(crowded, b, async (slice) => run((tx) => q.clearDenseGroups(tx, tenantId, id, slice)));
  }
  return { uf, unsettled: [...unsettled].sort((x, y) => x - y), crowded };
}

/**
 * Finds the overlap groups of an analysis's stored rows (row numbers 1..total). Rows that could not be settled are
 * turned into row errors, and the step runs again without them, so that no group is joined through an unchecked row.
 * Removing rows never makes another row crowded, so: if the second pass still leaves rows unsettled, all of its crowded
 * rows become errors, and the third pass has no crowded row at all (stage 1 alone, exact).
 */
export async function findOverlapGroups(deps: Deps, tenantId: string, id: string, total: number, b: OverlapBounds = defaultOverlapBounds, onStatement?: (ms: number) => void): Promise<OverlapResult> {
  const scope = { kind: 'tenant', tenantId } as const;
  // Its writes (dense groups, rows turned into errors) commit without waiting for the disk, like the classified rows:
  // the run's durable completion flushes them (analyses.pipeline.ts).
  const run: Run = async (fn) => {
    const t0 = performance.now();
    const out = await withScope(deps.db, scope, fn, { asyncCommit: true });
    onStatement?.(performance.now() - t0);
    await yieldConnection(deps);
    return out;
  };
  let tooDense = 0;
  let crowdedFirst = 0;
  for (let pass = 1; ; pass++) {
    const { uf, unsettled, crowded } = await onePass(run, tenantId, id, total, b);
    if (pass === 1) crowdedFirst = crowded.length;
    if (unsettled.length > 0) {
      const drop = pass >= 2 ? crowded : unsettled;
      tooDense += drop.length;
      await eachSlice(drop, b, async (slice) => run((tx) => q.markTooDense(tx, tenantId, id, slice, b.denseLimit)));
      continue;
    }
    await eachRange(
      total,
      b,
      async (from, to) => {
        for (const d of await run((tx) => q.duplicatesInRange(tx, tenantId, id, from, to))) uf.union(d.n, d.d);
      },
      b.concurrency,
    );
    return { groups: uf.groups(), tooDense, crowded: crowdedFirst };
  }
}
