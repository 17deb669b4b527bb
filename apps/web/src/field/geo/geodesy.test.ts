// Device geometry against PostGIS 3.3.2 (GEOS 3.11.1, PROJ 9.1.1): the reference numbers were computed once with psql on
// a database with `CREATE EXTENSION postgis`; each test keeps the SQL that produced its number.
import { describe, expect, it } from 'vitest';
import {
  circlePolygon,
  closeRing,
  hhmmss,
  intersection,
  lineLength,
  pointsToDropForValidRing,
  polygonArea,
  polygonPerimeter,
  selfIntersections,
  type LngLat,
  type Ring,
} from './geodesy';
import { addFix, DEFAULT_WALK_LIMITS, dropLast, emptyWalk } from './walk';

const farmOyo: Ring = [
  [3.9, 7.4],
  [3.902, 7.4],
  [3.9022, 7.4015],
  [3.9001, 7.4018],
  [3.9, 7.4],
];
const square50n: Ring = [
  [10, 50],
  [10.02, 50],
  [10.02, 50.01],
  [10, 50.01],
  [10, 50],
];
const holedOuter: Ring = [
  [36.8, -1.3],
  [36.81, -1.3],
  [36.81, -1.29],
  [36.8, -1.29],
  [36.8, -1.3],
];
const holedHole: Ring = [
  [36.803, -1.297],
  [36.803, -1.294],
  [36.806, -1.294],
  [36.806, -1.297],
  [36.803, -1.297],
];
const overlapB: Ring = [
  [3.9015, 7.401],
  [3.9035, 7.4008],
  [3.9033, 7.403],
  [3.9012, 7.4028],
  [3.9015, 7.401],
];

/** Within this share of the PostGIS figure (1e-5 = 0.001 %: 0.4 m² on a 4 ha farm). */
const close = (actual: number, expected: number, rel = 1e-5) => expect(Math.abs(actual - expected) / expected).toBeLessThan(rel);

describe('area and perimeter against PostGIS geography', () => {
  it('a 4 ha farm near Ibadan', () => {
    // SELECT ST_Area(g::geography), ST_Perimeter(g::geography) FROM (SELECT
    //   'SRID=4326;POLYGON((3.9 7.4,3.902 7.4,3.9022 7.4015,3.9001 7.4018,3.9 7.4))'::geometry g) t;
    close(polygonArea([farmOyo]), 41572.468027956784);
    close(polygonPerimeter([farmOyo]), 821.7195493457059);
  });

  it('a 1.6 km² block at 50° N (where a spherical formula is off by about 0.3 %)', () => {
    // 'SRID=4326;POLYGON((10 50,10.02 50,10.02 50.01,10 50.01,10 50))'
    close(polygonArea([square50n]), 1594766.2621250153);
    close(polygonPerimeter([square50n]), 5092.115894663368);
  });

  it('a polygon with a hole, south of the equator, either winding', () => {
    // 'SRID=4326;POLYGON((36.8 -1.3,36.81 -1.3,36.81 -1.29,36.8 -1.29,36.8 -1.3),
    //   (36.803 -1.297,36.803 -1.294,36.806 -1.294,36.806 -1.297,36.803 -1.297))'
    close(polygonArea([holedOuter, holedHole]), 1119847.1436825022);
    close(polygonArea([[...holedOuter].reverse(), holedHole]), 1119847.1436825022);
    close(polygonPerimeter([holedOuter, holedHole]), 5768.518238975783);
  });

  it('a walked line', () => {
    // SELECT ST_Length('SRID=4326;LINESTRING(3.9 7.4,3.9005 7.4003,3.9011 7.4001)'::geography);
    close(
      lineLength([
        [3.9, 7.4],
        [3.9005, 7.4003],
        [3.9011, 7.4001],
      ]),
      134.23717637275672,
    );
  });

  it('an open ring is closed before measuring', () => {
    close(polygonArea([farmOyo.slice(0, -1)]), 41572.468027956784);
  });
});

describe('overlap', () => {
  it('the overlap area of two farms', () => {
    // SELECT ST_Area(ST_Intersection(a, b)::geography) with a = the Ibadan farm above and
    // b = 'SRID=4326;POLYGON((3.9015 7.4010,3.9035 7.4008,3.9033 7.4030,3.9012 7.4028,3.9015 7.4010))'
    const { area, shape } = intersection([farmOyo], [overlapB]);
    close(area, 5113.917807731777, 1e-4);
    expect(shape.length).toBe(1);
  });

  it('farms apart overlap by nothing', () => {
    expect(intersection([farmOyo], [square50n]).area).toBe(0);
  });
});

describe('self-intersection', () => {
  it('finds the crossing of a bow-tie where ST_IsValidDetail puts it', () => {
    // SELECT ST_IsValidReason(g), ST_AsText(location(ST_IsValidDetail(g))) FROM (SELECT
    //   'SRID=4326;POLYGON((3.9 7.4,3.902 7.4,3.9 7.402,3.902 7.402,3.9 7.4))'::geometry g) t;
    // → Self-intersection[3.901 7.401] | POINT(3.901 7.401)
    const bowtie: Ring = [
      [3.9, 7.4],
      [3.902, 7.4],
      [3.9, 7.402],
      [3.902, 7.402],
    ];
    const found = selfIntersections(bowtie);
    expect(found).toHaveLength(1);
    expect(found[0]!.at[0]).toBeCloseTo(3.901, 9);
    expect(found[0]!.at[1]).toBeCloseTo(7.401, 9);
  });

  it('a valid ring has no crossing, a fold back along an edge has one', () => {
    expect(selfIntersections(farmOyo)).toEqual([]);
    const fold: Ring = [
      [0, 0],
      [2, 0],
      [1, 0],
      [1, 1],
    ];
    expect(selfIntersections(fold).length).toBeGreaterThan(0);
  });

  it('"remove the last points" counts how many positions undo the crossing', () => {
    const walk: LngLat[] = [
      [3.9, 7.4],
      [3.902, 7.4],
      [3.902, 7.402],
      [3.9, 7.402],
      [3.903, 7.401],
    ];
    // The last position makes the closing edge cross the first one.
    expect(selfIntersections(walk).length).toBeGreaterThan(0);
    expect(pointsToDropForValidRing(walk)).toBe(1);
  });
});

describe('point plots and durations', () => {
  it('a point plot becomes a polygon with the declared area', () => {
    const ring = circlePolygon([3.9, 7.4], 40000);
    expect(ring[0]).toEqual(ring[ring.length - 1]);
    close(polygonArea([ring]), 40000, 1e-9);
    expect(selfIntersections(ring)).toEqual([]);
  });

  it('hh:mm:ss', () => {
    expect(hhmmss(0)).toBe('00:00:00');
    expect(hhmmss(3725)).toBe('01:02:05');
    expect(hhmmss(90000)).toBe('25:00:00');
  });
});

describe('walking', () => {
  const start = { lng: 3.9, lat: 7.4, accuracy: 4, at: 0 };
  it('drops a spike and an inaccurate fix, keeps the rest', () => {
    let s = emptyWalk();
    s = addFix(s, start, DEFAULT_WALK_LIMITS).state;
    // 10 s later, about 11 m east: walking pace.
    let r = addFix(s, { lng: 3.9001, lat: 7.4, accuracy: 5, at: 10_000 }, DEFAULT_WALK_LIMITS);
    expect(r.verdict).toBe('added');
    s = r.state;
    // 5 s later, 220 m away: a spike.
    r = addFix(s, { lng: 3.9021, lat: 7.4, accuracy: 5, at: 15_000 }, DEFAULT_WALK_LIMITS);
    expect(r.verdict).toBe('spike');
    expect(r.state.spikes).toBe(1);
    s = r.state;
    r = addFix(s, { lng: 3.9002, lat: 7.4, accuracy: 25, at: 20_000 }, DEFAULT_WALK_LIMITS);
    expect(r.verdict).toBe('inaccurate');
    s = r.state;
    r = addFix(s, { lng: 3.9002, lat: 7.4, accuracy: 6, at: 25_000 }, DEFAULT_WALK_LIMITS);
    expect(r.verdict).toBe('added');
    expect(r.state.positions).toHaveLength(3);
    expect(dropLast(r.state, 2).positions).toEqual([[3.9, 7.4]]);
  });
  it('keeps closeRing idempotent', () => {
    expect(closeRing(closeRing(farmOyo))).toEqual(farmOyo);
  });
});
