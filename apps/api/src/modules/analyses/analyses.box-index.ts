// Bounding boxes of an analysis's rows, held in the run's memory, and a static R-tree over them: the overlap step's
// candidate search (analyses.overlap.ts). Each probe row used to ask the database's GiST index for the rows whose boxes
// meet its own; on the embedded engine that was four fifths of the overlap step (every index entry visited is a call
// into PostGIS), for an answer that is almost always "none". The boxes come back from the classify statements (the
// rows' exact extents, as PostGIS computes them), so finding candidates here costs no statement at all; the database
// still decides every pair (ST_Relate), through the primary key.

/** A list of rows with their boxes, grown as batches are classified (36 bytes a row). */
export class RowBoxes {
  private rowsBuf = new Int32Array(1024);
  private boxBuf = new Float64Array(4096);
  private count = 0;

  get size(): number {
    return this.count;
  }

  add(row: number, x0: number, y0: number, x1: number, y1: number): void {
    if (this.count === this.rowsBuf.length) {
      const rows = new Int32Array(this.rowsBuf.length * 2);
      rows.set(this.rowsBuf);
      this.rowsBuf = rows;
      const box = new Float64Array(this.boxBuf.length * 2);
      box.set(this.boxBuf);
      this.boxBuf = box;
    }
    const k = this.count++;
    this.rowsBuf[k] = row;
    this.boxBuf[k * 4] = x0;
    this.boxBuf[k * 4 + 1] = y0;
    this.boxBuf[k * 4 + 2] = x1;
    this.boxBuf[k * 4 + 3] = y1;
  }

  /** The rows (numbers 1..total), sorted by row number, without those in `drop`, with their boxes (placed, not sorted). */
  sorted(total: number, drop?: ReadonlySet<number>): { rows: Int32Array; box: Float64Array } {
    const at = new Int32Array(total + 1).fill(-1);
    let kept = 0;
    for (let i = 0; i < this.count; i++) {
      const n = this.rowsBuf[i]!;
      if (n < 1 || n > total) throw new Error(`row ${n} is outside 1..${total}`);
      if (drop?.has(n) || at[n]! >= 0) continue;
      at[n] = i;
      kept++;
    }
    const rows = new Int32Array(kept);
    const box = new Float64Array(kept * 4);
    for (let n = 1, k = 0; n <= total; n++) {
      const i = at[n]!;
      if (i < 0) continue;
      rows[k] = n;
      box.set(this.boxBuf.subarray(i * 4, i * 4 + 4), k * 4);
      k++;
    }
    return { rows, box };
  }
}

/** The bits of a 15-bit number spread to the even positions. */
function spread(v: number): number {
  v = (v | (v << 8)) & 0x00ff00ff;
  v = (v | (v << 4)) & 0x0f0f0f0f;
  v = (v | (v << 2)) & 0x33333333;
  return (v | (v << 1)) & 0x55555555;
}

/** Z-order (Morton) position of (x, y) on a 2^15 × 2^15 grid (30 bits). */
const zOrder = (x: number, y: number): number => (spread(x) | (spread(y) << 1)) >>> 0;

const NODE = 16;

/**
 * A packed R-tree (items sorted along a Z-order curve of their centres, 16 to a node, built bottom up), read only. Boxes meet when they
 * share a point (inclusive), as PostGIS's `&&` says: a pair whose interiors share area always has meeting boxes.
 */
export class BoxIndex {
  /** Row number of each leaf, in leaf order. */
  private readonly ids: Int32Array;
  /** Four numbers per node: the leaves first, then each level above them; the root last. */
  private readonly nodes: Float64Array;
  /** Index (in nodes) of each level's first node; the last entry is the root's level. */
  private readonly levels: number[] = [];
  /** The search's stack, kept between searches (one search at a time: search never awaits). */
  private stackNode = new Int32Array(0);
  private stackLevel = new Int32Array(0);

  constructor(rows: Int32Array, box: Float64Array) {
    const m = rows.length;
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (let i = 0; i < m; i++) {
      minX = Math.min(minX, box[i * 4]!);
      minY = Math.min(minY, box[i * 4 + 1]!);
      maxX = Math.max(maxX, box[i * 4 + 2]!);
      maxY = Math.max(maxY, box[i * 4 + 3]!);
    }
    const w = maxX - minX || 1;
    const h = maxY - minY || 1;
    const grid = (1 << 15) - 1;
    // Z-order position and index in one number (30 + 23 bits), so that a plain numeric sort orders them.
    let order: Int32Array;
    if (m < 1 << 23) {
      const keys = new Float64Array(m);
      for (let i = 0; i < m; i++) {
        const cx = Math.floor((((box[i * 4]! + box[i * 4 + 2]!) / 2 - minX) / w) * grid);
        const cy = Math.floor((((box[i * 4 + 1]! + box[i * 4 + 3]!) / 2 - minY) / h) * grid);
        keys[i] = zOrder(cx, cy) * 2 ** 23 + i;
      }
      keys.sort();
      order = new Int32Array(m);
      for (let i = 0; i < m; i++) order[i] = keys[i]! % 2 ** 23;
    } else {
      order = Int32Array.from({ length: m }, (_, i) => i);
    }
    let total = m;
    for (let n = m; n > 1;) {
      n = Math.ceil(n / NODE);
      total += n;
    }
    this.ids = new Int32Array(m);
    this.nodes = new Float64Array(Math.max(1, total) * 4);
    const nodes = this.nodes;
    for (let k = 0; k < m; k++) {
      const i = order[k]!;
      this.ids[k] = rows[i]!;
      nodes[k * 4] = box[i * 4]!;
      nodes[k * 4 + 1] = box[i * 4 + 1]!;
      nodes[k * 4 + 2] = box[i * 4 + 2]!;
      nodes[k * 4 + 3] = box[i * 4 + 3]!;
    }
    this.levels.push(0);
    let start = 0;
    let count = m;
    while (count > 1) {
      const next = start + count;
      const parents = Math.ceil(count / NODE);
      for (let p = 0; p < parents; p++) {
        let x0 = Infinity;
        let y0 = Infinity;
        let x1 = -Infinity;
        let y1 = -Infinity;
        const end = Math.min(start + count, start + (p + 1) * NODE);
        for (let c = start + p * NODE; c < end; c++) {
          if (nodes[c * 4]! < x0) x0 = nodes[c * 4]!;
          if (nodes[c * 4 + 1]! < y0) y0 = nodes[c * 4 + 1]!;
          if (nodes[c * 4 + 2]! > x1) x1 = nodes[c * 4 + 2]!;
          if (nodes[c * 4 + 3]! > y1) y1 = nodes[c * 4 + 3]!;
        }
        const at = (next + p) * 4;
        nodes[at] = x0;
        nodes[at + 1] = y0;
        nodes[at + 2] = x1;
        nodes[at + 3] = y1;
      }
      this.levels.push(next);
      start = next;
      count = parents;
    }
    this.stackNode = new Int32Array(this.levels.length * NODE + 1);
    this.stackLevel = new Int32Array(this.levels.length * NODE + 1);
  }

  get size(): number {
    return this.ids.length;
  }

  /** The rows in the index's own order (neighbours in space are mostly neighbours here: searches walk warm memory). */
  get rows(): Int32Array {
    return this.ids;
  }

  /** Calls visit(row) for each row whose box meets [x0, y0, x1, y1], until visit returns false. */
  search(x0: number, y0: number, x1: number, y1: number, visit: (row: number) => boolean): void {
    const m = this.ids.length;
    if (m === 0) return;
    const nodes = this.nodes;
    const levels = this.levels;
    const top = levels.length - 1;
    const root = levels[top]!;
    if (!(nodes[root * 4]! <= x1 && x0 <= nodes[root * 4 + 2]! && nodes[root * 4 + 1]! <= y1 && y0 <= nodes[root * 4 + 3]!)) return;
    if (top === 0) {
      visit(this.ids[0]!);
      return;
    }
    // Depth first; only nodes whose boxes meet the query are pushed (at most NODE per level on the stack).
    const stackNode = this.stackNode;
    const stackLevel = this.stackLevel;
    let sp = 0;
    stackNode[sp] = root;
    stackLevel[sp++] = top;
    while (sp > 0) {
      const node = stackNode[--sp]!;
      const level = stackLevel[sp]!;
      const below = levels[level - 1]!;
      const first = below + (node - levels[level]!) * NODE;
      const end = Math.min(levels[level]!, first + NODE);
      for (let c = first; c < end; c++) {
        if (!(nodes[c * 4]! <= x1 && x0 <= nodes[c * 4 + 2]! && nodes[c * 4 + 1]! <= y1 && y0 <= nodes[c * 4 + 3]!)) continue;
        if (level === 1) {
          if (!visit(this.ids[c]!)) return;
        } else {
          stackNode[sp] = c;
          stackLevel[sp++] = level - 1;
        }
      }
    }
  }
}
