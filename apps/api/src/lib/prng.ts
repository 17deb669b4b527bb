// Small seeded pseudo-random number generator (mulberry32) for deterministic demo data and tests.
// Same seed, same sequence, on every machine; it is not cryptographically secure.

export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both ends included. */
  int(min: number, max: number): number;
  /** A uniformly chosen element; throws on an empty array. */
  pick<T>(arr: readonly T[]): T;
}

/** Creates a mulberry32 generator; the seed is reduced to an unsigned 32-bit integer. */
export function createRng(seed: number): Rng {
  if (!Number.isFinite(seed)) throw new RangeError(`createRng: seed must be a finite number, got ${seed}`);
  let state = Math.trunc(seed) >>> 0;

  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };

  const int = (min: number, max: number): number => {
    if (!Number.isInteger(min) || !Number.isInteger(max)) throw new RangeError(`rng.int: bounds must be integers, got ${min}, ${max}`);
    if (max < min) throw new RangeError(`rng.int: max (${max}) is below min (${min})`);
    return min + Math.floor(next() * (max - min + 1));
  };

  const pick = <T>(arr: readonly T[]): T => {
    if (arr.length === 0) throw new RangeError('rng.pick: empty array');
    return arr[Math.floor(next() * arr.length)] as T;
  };

  return { next, int, pick };
}
