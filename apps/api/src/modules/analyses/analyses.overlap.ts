// The overlap step of a custom analysis: connected groups of rows whose interiors share area, with work and memory
// bounded by the rows, never by the pairs. An upload that repeats one polygon 75,000 times has 2.8 billion pairs; this
// step must finish it in seconds, and must not hold the embedded database's one connection for long at a time.
//
// Candidates are found in this process: the classify statements report each probe row's bounding box, and an R-tree
// over them (analyses.box-index.ts) answers "which rows' boxes meet this one" without a statement. The database decides
// every candidate pair (ST_Relate '2********', through the primary key); only pairs are sent, never whole ranges. A pair
// whose interiors meet is grouped only when its intersection reaches the analysis's overlap tolerance (issue 28: an area
// in m² and a share of the smaller row); every such pair is kept with its measures, slivers included.
// 1. Exact twins (same polygon bytes, found while staging) are not probe rows: a twin overlaps its first copy and
//    shares its group.
// 2. Stage 1: each probe row looks at no more than `limit` other rows by bounding box (either direction), and its pairs
//    with the later ones are tested. Rows with more candidates ("crowded") keep up to 4 overlaps among those seen.
//    Every pair whose first row is not crowded is tested here, exactly.
// 3. Stage 2, only when some rows were crowded: the pairs whose first row was crowded and were not tested. Crowded rows
//    get their own index; a pair already inside one group needs no test. When all crowded rows are in one group,
//    nothing is left to test. Otherwise each row looks at no more than `denseLimit` crowded candidates; a row with more
//    cannot be settled and becomes a row error (overlap_too_dense), and the step runs again without it, so no group is
//    ever joined through an unchecked row.
// Statements are sized by time: a slice of pairs shrinks or grows so that each holds the connection ~100 ms.
import type { Deps } from '../../context.js';
import { withScope, type Tx } from '../../db/client.js';
import { BoxIndex, type RowBoxes } from './analyses.box-index.js';
import * as qo from './analyses.overlap.queries.js';

export type OverlapBounds = {
  /** Candidates (by bounding box) one row looks at in stage 1. */
  limit: number;
  /** Crowded candidates one row looks at in stage 2. */
  denseLimit: number;
  /** Target wall time of one statement (ms). */
  targetMs: number;
  /** First range size (rows per statement); adapted to targetMs afterwards. */
  firstRange: number;
};

/** The overlap tolerance's defaults (drizzle/0024, docs/decisions/0055-overlap-tolerance.md): 1 m² and 1 % of the smaller row. */
export const DEFAULT_TOLERANCE: qo.Tolerance = { minAreaSqm: 1, minShare: 0.01 };

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
 * Sends work in slices whose size adapts so that each statement takes about targetMs: items are pushed one by one and
 * sent when a slice is full (flush sends the rest). Memory stays at one slice, whatever the number of items.
 */
class Slicer<T> {
  private items: T[] = [];
  private size: number;

  constructor(
    private readonly b: OverlapBounds,
    private readonly send: (slice: T[]) => Promise<void>,
  ) {
    this.size = Math.max(16, b.firstRange);
  }

  async push(item: T): Promise<void> {
    this.items.push(item);
    if (this.items.length >= this.size) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.items.length === 0) return;
    const slice = this.items;
    this.items = [];
    const t0 = performance.now();
    await this.send(slice);
    const ms = Math.max(1, performance.now() - t0);
    this.size = Math.max(16, Math.min(20_000, Math.round(slice.length * Math.min(4, Math.max(0.25, this.b.targetMs / ms)))));
  }
}

/**
 * Lets other work in (requests, on the embedded engine) during long loops of this thread: at most ~10 ms without a
 * turn of the event loop.
 */
class Pacer {
  private last = performance.now();
  private calls = 0;

  async tick(): Promise<void> {
    if (++this.calls % 256 !== 0) return;
    if (performance.now() - this.last < 10) return;
    await new Promise((resolve) => setImmediate(resolve));
    this.last = performance.now();
  }
}

export type OverlapResult = { groups: Array<{ n: number; g: number; size: number }>; tooDense: number; crowded: number };

/** What the classify statements reported: the probe rows (a polygon, no exact twin earlier) with their boxes, and the twins. */
export type ClassifiedRows = { boxes: RowBoxes; twins: Array<[number, number]> };

/** The probe rows of one pass, sorted, with a position per row number, and their index. */
class Probe {
  readonly rows: Int32Array;
  private readonly box: Float64Array;
  private readonly at: Int32Array;
  readonly index: BoxIndex;

  constructor(boxes: RowBoxes, total: number, drop: ReadonlySet<number>) {
    const s = boxes.sorted(total, drop);
    this.rows = s.rows;
    this.box = s.box;
    this.at = new Int32Array(total + 1).fill(-1);
    this.rows.forEach((n, k) => (this.at[n] = k));
    this.index = new BoxIndex(s.rows, s.box);
  }

  /** Up to max + 1 other rows of `index` whose boxes meet row n's (in no useful order). */
  candidates(index: BoxIndex, n: number, max: number): number[] {
    const k = this.at[n]!;
    const out: number[] = [];
    if (k < 0) return out;
    const b = this.box;
    index.search(b[k * 4]!, b[k * 4 + 1]!, b[k * 4 + 2]!, b[k * 4 + 3]!, (x) => {
      if (x !== n) out.push(x);
      return out.length <= max;
    });
    return out;
  }

  /** An index over some of the rows (the crowded ones). */
  indexOf(rows: number[]): BoxIndex {
    const ids = Int32Array.from(rows);
    const box = new Float64Array(rows.length * 4);
    rows.forEach((n, i) => box.set(this.box.subarray(this.at[n]! * 4, this.at[n]! * 4 + 4), i * 4));
    return new BoxIndex(ids, box);
  }
}

async function onePass(
  run: Run,
  tenantId: string,
  id: string,
  total: number,
  b: OverlapBounds,
  probe: Probe,
  t: qo.Tolerance,
): Promise<{ uf: RowUnion; unsettled: number[]; crowded: number[] }> {
  const uf = new RowUnion(total);
  const pairs = new Slicer<[number, number]>(b, async (slice) => {
    for (const p of await run((tx) => qo.overlapPairsOf(tx, tenantId, id, slice, t))) uf.union(p.a, p.b);
  });
  // Stage 1. A crowded row keeps up to 4 overlaps among the candidates it saw (either direction).
  const crowded: number[] = [];
  const seen = new Slicer<{ a: number; cands: number[] }>({ ...b, firstRange: Math.max(1, Math.round(b.firstRange / 8)) }, async (slice) => {
    for (const p of await run((tx) => qo.overlapHitsOf(tx, tenantId, id, slice, 4, t))) uf.union(p.a, p.b);
  });
  const pace = new Pacer();
  // In the index's order, not the rows': consecutive searches then walk the same parts of the tree (twice as fast at 1M
  // rows in random order). Which row of a pair tests it does not depend on the order.
  for (const a of probe.index.rows) {
    await pace.tick();
    const cands = probe.candidates(probe.index, a, b.limit);
    if (cands.length > b.limit) {
      crowded.push(a);
      await seen.push({ a, cands });
    } else {
      for (const x of cands) if (x > a) await pairs.push([a, x]);
    }
  }
  await pairs.flush();
  await seen.flush();
  crowded.sort((x, y) => x - y);
  if (crowded.length === 0) return { uf, unsettled: [], crowded };

  const crowdedSet = new Set(crowded);
  const dense = probe.indexOf(crowded);
  const unsettled = new Set<number>();
  /** Tests the candidates of `rows` among the crowded rows that lie in another group (and pass `keep`). */
  const settle = async (rows: number[], limit: number, keep: (a: number, b: number) => boolean) => {
    for (const a of rows) {
      await pace.tick();
      const cands = probe.candidates(dense, a, limit);
      if (cands.length > limit) {
        unsettled.add(a);
        continue;
      }
      for (const x of cands) if (keep(a, x) && uf.find(a) !== uf.find(x)) await pairs.push([a, x]);
    }
    await pairs.flush();
  };

  // Stage 2a concerns the non-crowded rows outside the crowded rows' group when they are all in one (every row, else);
  // when there is none and one group holds every crowded row, nothing is left to test.
  const groupOf = () => new Set(crowded.map((x) => uf.find(x)));
  const only = groupOf().size === 1 ? [...groupOf()][0]! : null;
  const later: number[] = [];
  for (const n of probe.rows) if (!crowdedSet.has(n) && (only === null || uf.find(n) !== only)) later.push(n);
  if (only !== null && later.length === 0) return { uf, unsettled: [], crowded };

  // Stage 2a: a crowded row and a non-crowded one after it (stage 1 tested the pairs whose first row was not crowded).
  // A non-crowded row has at most `limit` candidates in all, so this search can never be cut short.
  await settle(later, b.limit, (y, x) => x < y);
  // Stage 2b: two crowded rows in different groups; a crowded row with more crowded candidates than denseLimit
  // cannot be settled.
  if (groupOf().size > 1) await settle(crowded, b.denseLimit, () => true);
  return { uf, unsettled: [...unsettled].sort((x, y) => x - y), crowded };
}

/**
 * Finds the overlap groups of an analysis's stored rows (row numbers 1..total), from the probe rows and twins the
 * classify statements reported. Rows that could not be settled are turned into row errors, and the step runs again
 * without them, so that no group is joined through an unchecked row. Removing rows never makes another row crowded,
 * so: if the second pass still leaves rows unsettled, all of its crowded rows become errors, and the third pass has no
 * crowded row at all (stage 1 alone, exact).
 */
export async function findOverlapGroups(
  deps: Deps,
  tenantId: string,
  id: string,
  total: number,
  rows: ClassifiedRows,
  b: OverlapBounds = defaultOverlapBounds,
  onStatement?: (ms: number) => void,
  tolerance: qo.Tolerance = DEFAULT_TOLERANCE,
): Promise<OverlapResult> {
  const scope = { kind: 'tenant', tenantId } as const;
  // Its writes (rows turned into errors) commit without waiting for the disk, like the classified rows: the run's
  // durable completion flushes them (analyses.pipeline.ts).
  const run: Run = async (fn) => {
    const t0 = performance.now();
    const out = await withScope(deps.db, scope, fn, { asyncCommit: true });
    onStatement?.(performance.now() - t0);
    await yieldConnection(deps);
    return out;
  };
  let tooDense = 0;
  let crowdedFirst = 0;
  const dropped = new Set<number>();
  for (let pass = 1; ; pass++) {
    const { uf, unsettled, crowded } = await onePass(run, tenantId, id, total, b, new Probe(rows.boxes, total, dropped), tolerance);
    if (pass === 1) crowdedFirst = crowded.length;
    if (unsettled.length > 0) {
      const drop = pass >= 2 ? crowded : unsettled;
      tooDense += drop.length;
      for (const n of drop) dropped.add(n);
      const marks = new Slicer<number>(b, async (slice) => run((tx) => qo.markTooDense(tx, tenantId, id, slice, b.denseLimit)));
      for (const n of drop) await marks.push(n);
      await marks.flush();
      continue;
    }
    // An exact twin shares its first copy's group (a twin of a row turned into an error is an error too).
    for (const [n, d] of rows.twins) if (!dropped.has(d)) uf.union(n, d);
    return { groups: uf.groups(), tooDense, crowded: crowdedFirst };
  }
}
