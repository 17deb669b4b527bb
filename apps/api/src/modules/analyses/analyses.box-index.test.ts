// The overlap step's candidate search (analyses.box-index.ts) against a brute-force scan: every row whose box meets
// the query's (inclusive, as PostGIS's && says), each once, and a search stopped early stops.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BoxIndex, RowBoxes } from './analyses.box-index.js';

type B = [number, number, number, number];
const boxArb: fc.Arbitrary<B> = fc
  .tuple(
    fc.integer({ min: -50, max: 50 }),
    fc.integer({ min: -50, max: 50 }),
    fc.integer({ min: 0, max: 12 }),
    fc.integer({ min: 0, max: 12 }),
    fc.constantFrom(1, 0.001, 1e-7),
  )
  .map(([x, y, w, h, unit]) => [3 + x * unit, 7 + y * unit, 3 + (x + w) * unit, 7 + (y + h) * unit]);
const meets = (a: B, b: B) => a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];

function build(boxes: B[], total = boxes.length, drop?: Set<number>) {
  const set = new RowBoxes();
  // Added out of order (the classify lanes return batches in any order).
  [...boxes.keys()].reverse().forEach((i) => set.add(i + 1, ...boxes[i]!));
  const s = set.sorted(total, drop);
  return { index: new BoxIndex(s.rows, s.box), rows: s.rows };
}

describe('BoxIndex', () => {
  it('finds exactly the rows whose boxes meet the query, each once', () => {
    fc.assert(
      fc.property(fc.array(boxArb, { minLength: 0, maxLength: 600 }), boxArb, (boxes, query) => {
        const { index } = build(boxes);
        const got: number[] = [];
        index.search(...query, (n) => {
          got.push(n);
          return true;
        });
        const want = boxes
          .map((b, i) => [b, i + 1] as const)
          .filter(([b]) => meets(b, query))
          .map(([, n]) => n);
        expect(got.sort((a, b) => a - b)).toEqual(want);
      }),
      { numRuns: 300, seed: 20261125 },
    );
  });

  it('stops when the visitor says so', () => {
    const boxes: B[] = Array.from({ length: 5000 }, () => [0, 0, 1, 1]);
    const { index } = build(boxes);
    let calls = 0;
    index.search(0.5, 0.5, 0.5, 0.5, () => ++calls < 97);
    expect(calls).toBe(97);
  });

  it('leaves out dropped rows and sorts the rest by row number', () => {
    const boxes: B[] = Array.from({ length: 50 }, (_, i) => [i, 0, i + 1, 1]);
    const { index, rows } = build(boxes, 60, new Set([3, 4, 50]));
    expect(Array.from(rows)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1).filter((n) => ![3, 4, 50].includes(n)));
    const got: number[] = [];
    index.search(1.5, 0, 4.5, 1, (n) => got.push(n) > 0);
    expect(got.sort((a, b) => a - b)).toEqual([2, 5]);
  });

  it('refuses a row number outside the analysis', () => {
    const set = new RowBoxes();
    set.add(7, 0, 0, 1, 1);
    expect(() => set.sorted(6)).toThrow(/outside/);
  });
});
