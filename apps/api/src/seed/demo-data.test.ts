// Unit tests for the demo data generators: determinism, counts, ring validity, areas, overlap share and people.
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { buildDemoAreas, buildDemoFarms, buildPeople, DEMO_CENTER, METRES_PER_DEGREE, type LngLat } from './demo-data.js';
import { withCpuMs } from '../test/cpu-time.js';

type Pt = [number, number];

const open = (ring: readonly LngLat[]): LngLat[] => ring.slice(0, -1);

/** Projects a ring to metres with the equirectangular approximation at the ring's mean latitude. */
function toMetres(ring: readonly LngLat[]): Pt[] {
  const pts = open(ring);
  const meanLat = pts.reduce((s, p) => s + p[1], 0) / pts.length;
  const k = Math.cos((meanLat * Math.PI) / 180) * METRES_PER_DEGREE;
  return pts.map(([lng, lat]): Pt => [lng * k, lat * METRES_PER_DEGREE]);
}

function shoelace(pts: readonly Pt[]): number {
  let s = 0;
  for (let i = 0; i < pts.length; i++) {
    const a = pts[i] as Pt;
    const b = pts[(i + 1) % pts.length] as Pt;
    s += a[0] * b[1] - b[0] * a[1];
  }
  return s / 2;
}

const areaM2 = (ring: readonly LngLat[]): number => Math.abs(shoelace(toMetres(ring)));

function cross(o: Pt, a: Pt, b: Pt): number {
  return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

/** Proper or touching intersection of closed segments ab and cd. */
function segmentsIntersect(a: Pt, b: Pt, c: Pt, d: Pt): boolean {
  const d1 = cross(c, d, a);
  const d2 = cross(c, d, b);
  const d3 = cross(a, b, c);
  const d4 = cross(a, b, d);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  const onSeg = (p: Pt, q: Pt, r: Pt) =>
    Math.min(p[0], q[0]) <= r[0] && r[0] <= Math.max(p[0], q[0]) && Math.min(p[1], q[1]) <= r[1] && r[1] <= Math.max(p[1], q[1]);
  return (d1 === 0 && onSeg(c, d, a)) || (d2 === 0 && onSeg(c, d, b)) || (d3 === 0 && onSeg(a, b, c)) || (d4 === 0 && onSeg(a, b, d));
}

/** A ring is simple when no two non-adjacent edges meet. */
function isSimple(ring: readonly LngLat[]): boolean {
  const pts = open(ring) as Pt[];
  const n = pts.length;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      if (j === i + 1 || (i === 0 && j === n - 1)) continue;
      if (segmentsIntersect(pts[i] as Pt, pts[(i + 1) % n] as Pt, pts[j] as Pt, pts[(j + 1) % n] as Pt)) return false;
    }
  }
  return true;
}

function isConvex(ring: readonly LngLat[]): boolean {
  const pts = open(ring) as Pt[];
  const n = pts.length;
  let sign = 0;
  for (let i = 0; i < n; i++) {
    const c = cross(pts[i] as Pt, pts[(i + 1) % n] as Pt, pts[(i + 2) % n] as Pt);
    if (c === 0) return false;
    const s = Math.sign(c);
    if (sign === 0) sign = s;
    else if (s !== sign) return false;
  }
  return true;
}

function pointInPolygon(p: Pt, poly: readonly Pt[]): boolean {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const a = poly[i] as Pt;
    const b = poly[j] as Pt;
    if (a[1] > p[1] !== b[1] > p[1] && p[0] < ((b[0] - a[0]) * (p[1] - a[1])) / (b[1] - a[1]) + a[0]) inside = !inside;
  }
  return inside;
}

interface Box {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

function bbox(ring: readonly LngLat[]): Box {
  const xs = ring.map((p) => p[0]);
  const ys = ring.map((p) => p[1]);
  return { minX: Math.min(...xs), minY: Math.min(...ys), maxX: Math.max(...xs), maxY: Math.max(...ys) };
}

/** True when the two simple polygons share interior or boundary points. */
function polygonsIntersect(r1: readonly LngLat[], r2: readonly LngLat[]): boolean {
  const a = open(r1) as Pt[];
  const b = open(r2) as Pt[];
  for (let i = 0; i < a.length; i++) {
    for (let j = 0; j < b.length; j++) {
      if (segmentsIntersect(a[i] as Pt, a[(i + 1) % a.length] as Pt, b[j] as Pt, b[(j + 1) % b.length] as Pt)) return true;
    }
  }
  return pointInPolygon(a[0] as Pt, b) || pointInPolygon(b[0] as Pt, a);
}

/** All index pairs (i < j) of rings that intersect. */
function intersectingPairs(rings: ReadonlyArray<readonly LngLat[]>): Array<[number, number]> {
  const boxes = rings.map(bbox);
  const pairs: Array<[number, number]> = [];
  for (let i = 0; i < rings.length; i++) {
    const bi = boxes[i] as Box;
    for (let j = i + 1; j < rings.length; j++) {
      const bj = boxes[j] as Box;
      if (bi.maxX < bj.minX || bj.maxX < bi.minX || bi.maxY < bj.minY || bj.maxY < bi.minY) continue;
      if (polygonsIntersect(rings[i] as LngLat[], rings[j] as LngLat[])) pairs.push([i, j]);
    }
  }
  return pairs;
}

const has7Decimals = (v: number): boolean => Math.abs(v * 1e7 - Math.round(v * 1e7)) < 1e-6;

function expectValidRing(ring: readonly LngLat[], minVertices: number, maxVertices: number): void {
  expect(ring.length).toBeGreaterThanOrEqual(4);
  expect(ring[0]).toEqual(ring[ring.length - 1]);
  const distinct = new Set(open(ring).map((p) => `${p[0]},${p[1]}`));
  expect(distinct.size).toBe(ring.length - 1);
  expect(distinct.size).toBeGreaterThanOrEqual(Math.max(3, minVertices));
  expect(distinct.size).toBeLessThanOrEqual(maxVertices);
  for (const [lng, lat] of ring) {
    expect(Number.isFinite(lng) && Number.isFinite(lat)).toBe(true);
    expect(Math.abs(lng)).toBeLessThanOrEqual(180);
    expect(Math.abs(lat)).toBeLessThanOrEqual(90);
    expect(has7Decimals(lng) && has7Decimals(lat)).toBe(true);
  }
  expect(isSimple(ring)).toBe(true);
}

/** Distance in metres between two points (equirectangular, fine at these scales). */
function distanceM(a: LngLat, b: LngLat): number {
  const k = Math.cos((((a[1] + b[1]) / 2) * Math.PI) / 180) * METRES_PER_DEGREE;
  return Math.hypot((a[0] - b[0]) * k, (a[1] - b[1]) * METRES_PER_DEGREE);
}

describe('buildDemoFarms', () => {
  const opts = { seed: 20240601, count: 400, center: DEMO_CENTER, overlapShare: 0.08 };
  const farms = buildDemoFarms(opts);

  it('is deterministic and seed-dependent', () => {
    expect(buildDemoFarms(opts)).toEqual(farms);
    expect(buildDemoFarms({ ...opts, seed: opts.seed + 1 })).not.toEqual(farms);
  });

  it('returns the requested count of closed, simple rings with 5–9 vertices', () => {
    expect(farms).toHaveLength(opts.count);
    for (const f of farms) expectValidRing(f.ring, 5, 9);
  });

  it('keeps every farm between 0.2 ha and 5 ha', () => {
    for (const f of farms) {
      const a = areaM2(f.ring);
      expect(a).toBeGreaterThanOrEqual(2_000);
      expect(a).toBeLessThanOrEqual(50_000);
    }
  });

  it('stays within about 15 km of the centre', () => {
    for (const f of farms) for (const p of f.ring) expect(distanceM(p, DEMO_CENTER)).toBeLessThan(16_000);
  });

  it('respects overlapShare: exactly round(count × share) farms overlap an earlier farm, others overlap nothing', () => {
    const overlapping = farms.filter((f) => f.overlapsWith !== null);
    expect(overlapping).toHaveLength(Math.round(opts.count * opts.overlapShare));

    farms.forEach((f, i) => {
      if (f.overlapsWith === null) return;
      expect(f.overlapsWith).toBeGreaterThanOrEqual(0);
      expect(f.overlapsWith).toBeLessThan(i);
      const target = farms[f.overlapsWith];
      expect(target).toBeDefined();
      if (target !== undefined) expect(polygonsIntersect(f.ring, target.ring)).toBe(true);
    });

    // Every intersecting pair involves at least one deliberately overlapping farm.
    const pairs = intersectingPairs(farms.map((f) => f.ring));
    for (const [i, j] of pairs) {
      const involved = farms[i]?.overlapsWith !== null || farms[j]?.overlapsWith !== null;
      expect(involved, `farms ${i} and ${j} overlap unexpectedly`).toBe(true);
    }
    const involvedFarms = new Set(pairs.flat());
    const share = involvedFarms.size / farms.length;
    expect(share).toBeGreaterThanOrEqual(opts.overlapShare);
    expect(share).toBeLessThanOrEqual(2 * opts.overlapShare + 0.02);
  });

  it('produces no overlaps at all with overlapShare 0', () => {
    const none = buildDemoFarms({ ...opts, count: 300, overlapShare: 0 });
    expect(none.every((f) => f.overlapsWith === null)).toBe(true);
    expect(intersectingPairs(none.map((f) => f.ring))).toEqual([]);
  });

  it('uses the default centre and share when omitted, and handles edge counts', () => {
    expect(buildDemoFarms({ seed: 1, count: 0 })).toEqual([]);
    const one = buildDemoFarms({ seed: 1, count: 1, overlapShare: 1 });
    expect(one).toHaveLength(1);
    expect(one[0]?.overlapsWith).toBeNull();
    expect(buildDemoFarms({ seed: 5, count: 50 })).toEqual(buildDemoFarms({ seed: 5, count: 50, center: DEMO_CENTER, overlapShare: 0.08 }));
    expect(() => buildDemoFarms({ seed: 1, count: -1 })).toThrow(RangeError);
    expect(() => buildDemoFarms({ seed: 1, count: 10, overlapShare: 1.5 })).toThrow(RangeError);
  });

  it('works around other centres, including the southern and western hemispheres', () => {
    const center: LngLat = [-47.9292, -15.7801];
    const farmsBr = buildDemoFarms({ seed: 9, count: 60, center, overlapShare: 0.1 });
    for (const f of farmsBr) {
      expectValidRing(f.ring, 5, 9);
      const a = areaM2(f.ring);
      expect(a).toBeGreaterThanOrEqual(2_000);
      expect(a).toBeLessThanOrEqual(50_000);
      expect(distanceM(f.ring[0] as LngLat, center)).toBeLessThan(16_000);
    }
  });

  it('generates valid rings for arbitrary seeds (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), fc.double({ min: 0, max: 0.5, noNaN: true }), (seed, share) => {
        const list = buildDemoFarms({ seed, count: 30, center: DEMO_CENTER, overlapShare: share });
        if (list.length !== 30) return false;
        if (list.filter((f) => f.overlapsWith !== null).length !== Math.round(30 * share)) return false;
        return list.every((f) => {
          const a = areaM2(f.ring);
          return f.ring.length >= 6 && f.ring.length <= 10 && isSimple(f.ring) && a >= 2_000 && a <= 50_000;
        });
      }),
      { numRuns: 40 },
    );
  });

  it('scales to a few thousand farms quickly', async () => {
    const { value: many, cpuMs } = await withCpuMs(async () => buildDemoFarms({ seed: 3, count: 3_000, center: DEMO_CENTER, overlapShare: 0.08 }));
    expect(many).toHaveLength(3_000);
    expect(cpuMs).toBeLessThan(5_000);
  });
});

describe('buildDemoAreas', () => {
  const opts = { seed: 77, count: 6, center: DEMO_CENTER };
  const areas = buildDemoAreas(opts);

  it('is deterministic', () => {
    expect(buildDemoAreas(opts)).toEqual(areas);
    expect(buildDemoAreas({ ...opts, seed: 78 })).not.toEqual(areas);
  });

  it('returns closed, simple, convex rings a few km across near the farm region', () => {
    expect(areas).toHaveLength(opts.count);
    for (const a of areas) {
      expect(a.name.length).toBeGreaterThan(0);
      expectValidRing(a.ring, 6, 10);
      expect(isConvex(a.ring)).toBe(true);
      const pts = open(a.ring);
      let diameter = 0;
      for (const p of pts) for (const q of pts) diameter = Math.max(diameter, distanceM(p, q));
      expect(diameter).toBeGreaterThan(1_500);
      expect(diameter).toBeLessThan(6_500);
      const sqKm = areaM2(a.ring) / 1e6;
      expect(sqKm).toBeGreaterThan(0.5);
      expect(sqKm).toBeLessThan(30);
      for (const p of pts) expect(distanceM(p, DEMO_CENTER)).toBeLessThan(15_000);
    }
    expect(new Set(areas.map((a) => a.name)).size).toBe(areas.length);
  });

  it('covers some demo farms', () => {
    const farms = buildDemoFarms({ seed: 1, count: 500, center: DEMO_CENTER, overlapShare: 0.08 });
    const covered = farms.filter((f) => areas.some((a) => pointInPolygon(toMetres(f.ring)[0] as Pt, toMetres(a.ring))));
    expect(covered.length).toBeGreaterThan(0);
  });
});

describe('buildPeople', () => {
  const people = buildPeople({ seed: 5, count: 500 });

  it('is deterministic with the requested count', () => {
    expect(people).toHaveLength(500);
    expect(buildPeople({ seed: 5, count: 500 })).toEqual(people);
    expect(buildPeople({ seed: 6, count: 500 })).not.toEqual(people);
  });

  it('has names, both genders, +234 phone numbers and unique lowercase example.com emails', () => {
    const genders = new Set(people.map((p) => p.gender));
    expect(genders).toEqual(new Set(['Male', 'Female']));
    for (const p of people) {
      expect(p.first_name).toMatch(/^[A-Z][a-z]+$/);
      expect(p.last_name).toMatch(/^[A-Z][a-z]+$/);
      expect(p.phone_number).toMatch(/^\+234[789][01]\d{8}$/);
      expect(p.email).toBe(p.email.toLowerCase());
      expect(p.email).toMatch(/^[a-z]+\.[a-z]+\d+@example\.com$/);
      expect(p.email.startsWith(`${p.first_name}.${p.last_name}`.toLowerCase())).toBe(true);
    }
    expect(new Set(people.map((p) => p.email)).size).toBe(people.length);
    expect(new Set(people.map((p) => p.phone_number)).size).toBe(people.length);
    const males = people.filter((p) => p.gender === 'Male').length;
    expect(males).toBeGreaterThan(200);
    expect(males).toBeLessThan(300);
  });
});
