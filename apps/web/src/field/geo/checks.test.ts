// The device checks on a small bundle. Areas come from polygonArea, itself checked against PostGIS in geodesy.test.ts;
// the overlap figure below is PostGIS's (same SQL as the overlap test there).
import { describe, expect, it } from 'vitest';
import type { FieldBundle } from '../api/types';
import { checksPass, overlapCounts, runChecks } from './checks';
import type { LngLat } from './geodesy';

const farmOyo: LngLat[] = [
  [3.9, 7.4],
  [3.902, 7.4],
  [3.9022, 7.4015],
  [3.9001, 7.4018],
];
const overlapB: LngLat[] = [
  [3.9015, 7.401],
  [3.9035, 7.4008],
  [3.9033, 7.403],
  [3.9012, 7.4028],
  [3.9015, 7.401],
];
const area: LngLat[] = [
  [3.89, 7.39],
  [3.91, 7.39],
  [3.91, 7.41],
  [3.89, 7.41],
  [3.89, 7.39],
];
const settings = { minimum_farm_size: 100, overlap_min_area_sqm: 1, overlap_min_share: 0.01 };
const bundle = (farms: FieldBundle['farms'], s = settings): FieldBundle => ({
  generated_at: '2026-11-27T00:00:00Z',
  area: { id: 'a', name: 'Area', geometry: { type: 'Polygon', coordinates: [area] }, bbox: [3.89, 7.39, 3.91, 7.41] },
  farms,
  truncated: false,
  farms_limit: 20000,
  farmers: [],
  farmers_truncated: false,
  settings: s,
});

describe('device checks', () => {
  it('a clean capture passes', () => {
    const r = runChecks(farmOyo, bundle([]), []);
    expect(checksPass(r)).toBe(true);
  });

  it('reports a registry overlap with its area (PostGIS: 5113.917807731777 m²)', () => {
    const r = runChecks(
      farmOyo,
      bundle([{ id: 'f1', name: 'North plot', farmer_id: 'p1', farmer_name: 'Ade', geometry: { type: 'Polygon', coordinates: [overlapB] }, area_sqm: 46000 }]),
      [],
    );
    expect(r.overlaps).toHaveLength(1);
    expect(r.overlaps[0]!.label).toBe('North plot');
    expect(Math.abs(r.overlaps[0]!.areaSqm - 5113.917807731777) / 5113.917807731777).toBeLessThan(1e-4);
    expect(checksPass(r)).toBe(false);
  });

  it('applies the tenant tolerance: a 5114 m² overlap is a sliver when the share limit is 20 %', () => {
    const r = runChecks(
      farmOyo,
      bundle([{ id: 'f1', name: 'x', farmer_id: 'p1', farmer_name: 'Ade', geometry: { type: 'Polygon', coordinates: [overlapB] }, area_sqm: 46000 }], {
        ...settings,
        overlap_min_share: 0.2,
      }),
      [],
    );
    expect(r.overlaps).toEqual([]);
    expect(overlapCounts(10, 1000, 2000, { ...settings, overlap_min_share: 0.01 })).toBe(true);
    expect(overlapCounts(0.5, 1000, 2000, settings)).toBe(false);
  });

  it('finds overlaps with earlier device captures', () => {
    const r = runChecks(farmOyo, bundle([]), [{ id: 'c1', label: 'Earlier capture', coordinates: overlapB, areaSqm: 46000 }]);
    expect(r.overlaps.map((o) => o.kind)).toEqual(['device']);
  });

  it('the minimum farm size and the part outside the area', () => {
    const r = runChecks(farmOyo, bundle([], { ...settings, minimum_farm_size: 50_000 }), []);
    expect(r.tooSmall).toBe(true);
    const outside: LngLat[] = [
      [3.909, 7.4],
      [3.912, 7.4],
      [3.912, 7.402],
      [3.909, 7.402],
    ];
    const o = runChecks(outside, bundle([]), []);
    // Two thirds of the plot lie east of the area's edge at 3.91.
    expect(o.outsideSqm / o.areaSqm).toBeGreaterThan(0.66);
    expect(o.outsideSqm / o.areaSqm).toBeLessThan(0.67);
  });

  it('a crossing is reported and stops the overlay checks', () => {
    const r = runChecks(
      [
        [3.9, 7.4],
        [3.902, 7.4],
        [3.9, 7.402],
        [3.902, 7.402],
      ],
      bundle([]),
      [],
    );
    expect(r.crossings).toHaveLength(1);
    expect(r.overlaps).toEqual([]);
  });
});
