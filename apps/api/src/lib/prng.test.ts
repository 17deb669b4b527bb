// Unit tests for the seeded mulberry32 generator: reference values, determinism and the int/pick helpers.
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { createRng } from './prng.js';

describe('createRng', () => {
  it('matches the reference mulberry32 sequence', () => {
    const r42 = createRng(42);
    expect([r42.next(), r42.next(), r42.next()]).toEqual([0.6011037519201636, 0.44829055899754167, 0.8524657934904099]);
    const r0 = createRng(0);
    expect([r0.next(), r0.next(), r0.next()]).toEqual([0.26642920868471265, 0.0003297457005828619, 0.2232720274478197]);
  });

  it('is deterministic per seed and differs between seeds', () => {
    const seq = (seed: number) => {
      const r = createRng(seed);
      return Array.from({ length: 20 }, () => r.next());
    };
    expect(seq(7)).toEqual(seq(7));
    expect(seq(7)).not.toEqual(seq(8));
  });

  it('next() stays in [0, 1)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), (seed) => {
        const r = createRng(seed);
        for (let i = 0; i < 50; i++) {
          const v = r.next();
          if (!(v >= 0 && v < 1)) return false;
        }
        return true;
      }),
      { numRuns: 200 },
    );
  });

  it('int(min, max) is inclusive on both ends and covers the range', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: 0, max: 20 }), (seed, min, width) => {
        const r = createRng(seed);
        for (let i = 0; i < 30; i++) {
          const v = r.int(min, min + width);
          if (!Number.isInteger(v) || v < min || v > min + width) return false;
        }
        return true;
      }),
    );
    const r = createRng(3);
    const seen = new Set<number>();
    for (let i = 0; i < 500; i++) seen.add(r.int(1, 6));
    expect([...seen].sort()).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('pick() returns elements of the array and rejects empty arrays', () => {
    const r = createRng(11);
    const items = ['a', 'b', 'c'] as const;
    for (let i = 0; i < 100; i++) expect(items).toContain(r.pick(items));
    expect(() => r.pick([])).toThrow(RangeError);
    expect(() => r.int(5, 4)).toThrow(RangeError);
  });
});
