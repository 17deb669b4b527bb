// The first view's farms: far outliers left out, compact sets kept whole.
import { describe, expect, it } from 'vitest';
import { coreFeatures } from './fit-core';
import type { MapFeature } from './map-constants';

const farm = (id: string, lng: number, lat: number): MapFeature => ({
  id,
  name: id,
  category: 'within',
  rings: [
    [
      [lng, lat],
      [lng + 0.001, lat],
      [lng + 0.001, lat + 0.001],
      [lng, lat],
    ],
  ],
});

describe('coreFeatures', () => {
  it('leaves out a farm with swapped coordinates, far from the others', () => {
    const cluster = Array.from({ length: 20 }, (_, i) => farm(`f${i}`, 3.77 + (i % 5) * 0.003, 7.64 + Math.floor(i / 5) * 0.003));
    const swapped = farm('swapped', 7.64, 3.77);
    expect(coreFeatures([...cluster, swapped]).map((f) => f.id)).toEqual(cluster.map((f) => f.id));
  });
  it('leaves out one outlier among five', () => {
    const four = [0, 1, 2, 3].map((i) => farm(`c${i}`, 3.77 + i * 0.004, 7.64));
    expect(coreFeatures([...four, farm('far', 7.64, 3.77)]).map((f) => f.id)).toEqual(four.map((f) => f.id));
  });
  it('keeps every farm of a spread but continuous set, and small sets whole', () => {
    const spread = Array.from({ length: 30 }, (_, i) => farm(`s${i}`, 3.5 + i * 0.02, 7.6));
    expect(coreFeatures(spread)).toHaveLength(30);
    const few = [farm('a', 3.77, 7.64), farm('b', 7.64, 3.77)];
    expect(coreFeatures(few)).toHaveLength(2);
  });
});
