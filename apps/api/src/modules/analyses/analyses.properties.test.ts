// Properties of the analysis, checked with fast-check through the API: every row lands in exactly one of error, within
// or outside; the result does not depend on row order; overlap is symmetric and its groups are the connected components
// of the overlap graph; overlapping_id does not change when the whole upload is translated.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { testEnv, type TestEnv } from '../../test/harness.js';
import { arrangeTenant, outcome, type Outcome } from '../../test/analysis-fixtures.js';

type Farm = { x: number; y: number; w: number; h: number; bad: 'none' | 'bowtie' | 'two' | 'noname' };
const CELL = 0.001; // ~110 m: farms on a small grid so that neighbours may overlap, touch or stay apart

const farmArb: fc.Arbitrary<Farm> = fc.record({
  x: fc.integer({ min: 0, max: 5 }),
  y: fc.integer({ min: 0, max: 5 }),
  w: fc.integer({ min: 1, max: 3 }),
  h: fc.integer({ min: 1, max: 3 }),
  bad: fc.constantFrom('none', 'none', 'none', 'none', 'bowtie', 'two', 'noname'),
});

/** Half-cell k → degrees, rounded so that the same k always gives the same number (shared edges stay exactly shared). */
const at = (k: number) => Number(((20_600 + k) * CELL * 0.5).toFixed(7));

/** shift: whole half-cells the upload is translated by (east and north). */
function location(f: Farm, i: number, shift = 0) {
  const x0 = at(f.x + shift);
  const y0 = at(f.y + shift);
  const x1 = at(f.x + f.w + shift);
  const y1 = at(f.y + f.h + shift);
  const coords =
    f.bad === 'bowtie'
      ? [
          [x0, y0],
          [x1, y1],
          [x1, y0],
          [x0, y1],
        ]
      : f.bad === 'two'
        ? [
            [x0, y0],
            [x1, y1],
          ]
        : [
            [x0, y0],
            [x1, y0],
            [x1, y1],
            [x0, y1],
          ];
  return { farm_name: f.bad === 'noname' ? '' : `F${i}`, farm_coordinates: coords, ref: `id-${i}` };
}

/** Rectangles (integer half-cells) overlap when their interiors share area: strict inequality on both axes. */
function overlaps(a: Farm, b: Farm): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

describe('custom analysis properties', () => {
  let env: TestEnv;
  let t: Awaited<ReturnType<typeof arrangeTenant>>;

  beforeAll(async () => {
    env = await testEnv();
    // One area covers the left part of the grid: farms land within, outside, or partly inside.
    t = await arrangeTenant(env, [
      {
        name: 'Left',
        ring: [
          [10.29, 10.29],
          [10.3015, 10.29],
          [10.3015, 10.31],
          [10.29, 10.31],
          [10.29, 10.29],
        ],
      },
    ]);
  });

  const run = async (locations: unknown[]) => {
    const res = await t.caller.post('/api/custom-analysis/', {
      name: 'prop',
      operational_areas: t.areaIds,
      locations,
      require_farm_recognition: false,
      minimum_farm_size: 1,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return outcome(t.caller, res.body.data.id);
  };

  it('partitions rows, matches the overlap graph, and ignores order and translation', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(farmArb, { minLength: 1, maxLength: 12 }), fc.integer({ min: 0, max: 1000 }), async (farms, seed) => {
        const base = await run(farms.map((f, i) => location(f, i)));
        // Exactly one of error / within / outside per row, and the counts add up.
        const seen = [...base.lists['within']!, ...base.lists['outside']!, ...base.lists['errors']!].sort((a, b) => a - b);
        expect(seen).toEqual(farms.map((_, i) => i + 1));
        const d = base.detail;
        expect(d.within_operational_area.count + d.outside_operational_area.count + d.errors.count).toBe(farms.length);

        // Overlap flags and groups agree with the independent rectangle computation over the valid rows.
        const valid = farms.map((f, i) => ({ f, n: i + 1 })).filter(({ f }) => f.bad === 'none');
        const parent = new Map(valid.map(({ n }) => [n, n]));
        const find = (x: number): number => (parent.get(x) === x ? x : find(parent.get(x)!));
        for (const a of valid) for (const b of valid) if (a.n < b.n && overlaps(a.f, b.f)) parent.set(find(b.n), find(a.n));
        const expectedOverlapping = new Set(valid.filter((a) => valid.some((b) => b.n !== a.n && overlaps(a.f, b.f))).map((a) => a.n));
        expect(new Set(base.lists['overlapping'])).toEqual(expectedOverlapping);
        for (const a of expectedOverlapping) {
          for (const b of expectedOverlapping) {
            const same = base.rows.get(a)!.overlapping_id === base.rows.get(b)!.overlapping_id;
            expect(same).toBe(find(a) === find(b)); // groups = connected components (symmetric by construction)
          }
        }

        // Row order: a permutation gives the same class and group partition per input row (matched by its own id).
        const order = farms.map((_, i) => i).sort((a, b) => ((a * 7919 + seed) % 101) - ((b * 7919 + seed) % 101));
        const shuffled = await run(order.map((i) => location(farms[i]!, i)));
        const byRef = (o: Map<number, Outcome>, rowOf: (i: number) => number) => farms.map((_, i) => o.get(rowOf(i))!);
        const a1 = byRef(base.rows, (i) => i + 1);
        const a2 = byRef(shuffled.rows, (i) => order.indexOf(i) + 1);
        expect(a2.map((x) => x.category)).toEqual(a1.map((x) => x.category));
        expect(a2.map((x) => x.is_overlapping)).toEqual(a1.map((x) => x.is_overlapping));
        for (let i = 0; i < farms.length; i++) {
          for (let j = 0; j < farms.length; j++) {
            if (!a1[i]!.is_overlapping || !a1[j]!.is_overlapping) continue;
            expect(a2[i]!.overlapping_id === a2[j]!.overlapping_id).toBe(a1[i]!.overlapping_id === a1[j]!.overlapping_id);
          }
        }

        // Translation (the whole upload moved ~1 km north-east): overlapping_id unchanged row by row.
        const moved = await run(farms.map((f, i) => location(f, i, 20)));
        for (const n of expectedOverlapping) expect(moved.rows.get(n)!.overlapping_id).toBe(base.rows.get(n)!.overlapping_id);
      }),
      { numRuns: 6, seed: 20260521 },
    );
  }, 240_000);
});
