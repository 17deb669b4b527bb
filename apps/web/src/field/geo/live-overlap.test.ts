// The live overlap figure while walking or drawing: the same figures as the review check for the same closed ring, and
// the bounding-box index returns what checking every farm returns.
import { describe, expect, it } from 'vitest';
import type { FieldBundle } from '../api/types';
import { liveOverlap, OverlapIndex, overlapCandidates, overlapsOf, runChecks, type DevicePlot } from './checks';
import { bboxesMeet, bboxOf, closeRing, polygonArea, type LngLat, type PolygonRings } from './geodesy';

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
const square = (x: number, y: number, s: number): LngLat[] => [
  [x, y],
  [x + s, y],
  [x + s, y + s],
  [x, y + s],
  [x, y],
];
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
const farm = (id: string, ring: LngLat[]): FieldBundle['farms'][number] => ({
  id,
  name: id,
  farmer_id: 'p',
  farmer_name: 'Ade',
  geometry: { type: 'Polygon', coordinates: [ring] },
  area_sqm: polygonArea([ring]),
});

// A fixed pseudo-random sequence (the same farms on every run).
function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/** 2,000 farms of 20 to 120 m a side, scattered over the 2.2 km area (many overlap each other, as registries do). */
function manyFarms(): FieldBundle['farms'] {
  const r = rng(31);
  return Array.from({ length: 2000 }, (_, i) => farm(`f${i}`, square(3.89 + r() * 0.019, 7.39 + r() * 0.019, 0.0002 + r() * 0.0009)));
}

describe('live overlap', () => {
  it('gives the review check’s figures for the same closed ring (registry farm and device capture)', () => {
    const b = bundle([farm('North plot', overlapB), farm('Far away', square(3.905, 7.405, 0.001))]);
    const device: DevicePlot[] = [
      { id: 'c1', label: 'Earlier capture', coordinates: square(3.9018, 7.4005, 0.0008), areaSqm: polygonArea([square(3.9018, 7.4005, 0.0008)]) },
    ];
    const index = new OverlapIndex(overlapCandidates(b, device));
    const live = liveOverlap(farmOyo, index, b.settings)!;
    const review = runChecks(farmOyo, b, device);
    expect(review.overlaps.map((o) => o.id)).toEqual(['North plot', 'c1']);
    expect(live.count).toBe(review.overlaps.length);
    expect(live.areaSqm).toBe(review.overlaps.reduce((s, o) => s + o.areaSqm, 0));
    expect(live.shapes).toEqual(review.overlaps.flatMap((o) => o.shape));
    // PostGIS's figure for the registry overlap (checks.test.ts).
    expect(Math.abs(review.overlaps[0]!.areaSqm - 5113.917807731777) / 5113.917807731777).toBeLessThan(1e-4);
  });

  it('uses the tenant’s overlap tolerance like the review check', () => {
    const b = bundle([farm('North plot', overlapB)], { ...settings, overlap_min_share: 0.2 });
    const live = liveOverlap(farmOyo, new OverlapIndex(overlapCandidates(b, [])), b.settings)!;
    expect(runChecks(farmOyo, b, []).overlaps).toEqual([]);
    expect(live).toEqual({ count: 0, areaSqm: 0, shapes: [] });
  });

  it('has no figure below 3 positions or while the open ring crosses itself, and does not throw', () => {
    const index = new OverlapIndex(overlapCandidates(bundle([farm('North plot', overlapB)]), []));
    expect(liveOverlap(farmOyo.slice(0, 2), index, settings)).toBeNull();
    expect(
      liveOverlap(
        [
          [3.9, 7.4],
          [3.902, 7.4],
          [3.9, 7.402],
          [3.902, 7.402],
        ],
        index,
        settings,
      ),
    ).toBeNull();
    // All on one line: no area, no overlap, no error.
    expect(() =>
      liveOverlap(
        [
          [3.9, 7.4],
          [3.901, 7.4],
          [3.902, 7.4],
        ],
        index,
        settings,
      ),
    ).not.toThrow();
  });

  it('the index returns the same candidates and findings as checking all 2,000 farms', () => {
    const b = bundle(manyFarms());
    const candidates = overlapCandidates(b, []);
    const index = new OverlapIndex(candidates);
    const r = rng(87);
    let withOverlap = 0;
    let visited = 0;
    for (let k = 0; k < 60; k++) {
      // Walk-sized rings (30 to 250 m), and a few that cover most of the area.
      const s = k % 20 === 19 ? 0.015 : 0.0003 + r() * 0.002;
      const ring: PolygonRings = [closeRing(square(3.89 + r() * (0.02 - s), 7.39 + r() * (0.02 - s), s).slice(0, -1))];
      const box = bboxOf(ring);
      const near = index.query(box);
      expect(near).toEqual(candidates.filter((c) => bboxesMeet(box, c.box)));
      visited += near.length;
      const sqm = polygonArea(ring);
      const viaIndex = overlapsOf(ring, sqm, near, b.settings);
      expect(viaIndex).toEqual(overlapsOf(ring, sqm, candidates, b.settings));
      expect(liveOverlap(ring[0]!.slice(0, -1), index, b.settings)!.count).toBe(runChecks(ring[0]!.slice(0, -1), b, []).overlaps.length);
      if (viaIndex.length > 0) withOverlap++;
    }
    // The rings do meet farms (the comparison is not between two empty lists), and the index skips most of them.
    expect(withOverlap).toBeGreaterThan(40);
    expect(visited).toBeLessThan(60 * 2000 * 0.2);
  });
});
