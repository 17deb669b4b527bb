// Geometry on the device, in WGS84 degrees ([lng, lat]). Figures are checked against PostGIS's geography functions in
// geodesy.test.ts (the SQL is stored beside each number).
// - Area: the ellipsoid mapped to its authalic sphere (an equal-area map) and that sphere to a cylindrical equal-area
//   plane, then the shoelace formula. Exact for the ellipsoid up to the straight-edge approximation, which is far below a
//   square metre for farm-sized edges.
// - Lengths: each edge in a local metric (the ellipsoid's radii of curvature at the edge's middle latitude).
// - Overlap: polygon-clipping's intersection (in degrees), measured with the same area function.
import polygonClipping from 'polygon-clipping';

export type LngLat = [number, number];
export type Ring = LngLat[];
/** Rings: the exterior first, then holes. */
export type PolygonRings = Ring[];

const A = 6378137; // WGS84 semi-major axis (m)
const F = 1 / 298.257223563;
const E2 = F * (2 - F);
const E = Math.sqrt(E2);
const RAD = Math.PI / 180;

function qOf(sinPhi: number): number {
  const es = E * sinPhi;
  return (1 - E2) * (sinPhi / (1 - es * es) - (1 / (2 * E)) * Math.log((1 - es) / (1 + es)));
}
const QP = qOf(1);
/** The authalic sphere's radius: the sphere with the ellipsoid's surface area. */
const RQ = A * Math.sqrt(QP / 2);

/** The y of the cylindrical equal-area map of the authalic sphere, in metres. */
const authalicY = (latDeg: number): number => (RQ * qOf(Math.sin(latDeg * RAD))) / QP;

/** Closes a ring (first position repeated at the end) if it is open. */
export function closeRing(ring: Ring): Ring {
  const first = ring[0];
  const last = ring[ring.length - 1];
  if (!first || !last) return ring;
  return first[0] === last[0] && first[1] === last[1] ? ring : [...ring, first];
}

/** The signed area of one ring in m² (positive when counter-clockwise). */
function ringSignedArea(ring: Ring): number {
  const r = closeRing(ring);
  if (r.length < 4) return 0;
  const x0 = r[0]![0];
  const y0 = authalicY(r[0]![1]);
  let sum = 0;
  let px = 0;
  let py = 0;
  for (let i = 1; i < r.length; i++) {
    const x = RQ * (r[i]![0] - x0) * RAD;
    const y = authalicY(r[i]![1]) - y0;
    sum += px * y - x * py;
    px = x;
    py = y;
  }
  return sum / 2;
}

/** The area of a polygon (exterior minus holes) in m², as PostGIS's ST_Area(geography) measures it. */
export function polygonArea(rings: PolygonRings): number {
  let area = 0;
  rings.forEach((ring, i) => {
    const a = Math.abs(ringSignedArea(ring));
    area += i === 0 ? a : -a;
  });
  return Math.max(0, area);
}

export function multiPolygonArea(polys: PolygonRings[]): number {
  return polys.reduce((s, p) => s + polygonArea(p), 0);
}

/** The distance between two nearby positions in metres (edges of a farm, steps of a walk). */
export function distance(a: LngLat, b: LngLat): number {
  const phi = ((a[1] + b[1]) / 2) * RAD;
  const s = Math.sin(phi);
  const w = 1 - E2 * s * s;
  const m = (A * (1 - E2)) / (w * Math.sqrt(w)); // meridional radius
  const n = A / Math.sqrt(w); // prime-vertical radius
  const dy = m * (b[1] - a[1]) * RAD;
  const dx = n * Math.cos(phi) * (b[0] - a[0]) * RAD;
  return Math.hypot(dx, dy);
}

/** The length of a line in metres. */
export function lineLength(line: LngLat[]): number {
  let total = 0;
  for (let i = 1; i < line.length; i++) total += distance(line[i - 1]!, line[i]!);
  return total;
}

/** The perimeter of a polygon (all rings) in metres, as ST_Perimeter(geography). */
export function polygonPerimeter(rings: PolygonRings): number {
  return rings.reduce((s, r) => s + lineLength(closeRing(r)), 0);
}

export type Crossing = {
  /** Index of the first edge (from position i to i+1 of the closed ring). */
  edgeA: number;
  edgeB: number;
  at: LngLat;
};

/** Where two segments cross (proper crossing or touching at an interior point), or null. */
function segmentCrossing(p1: LngLat, p2: LngLat, p3: LngLat, p4: LngLat): LngLat | null {
  const d1x = p2[0] - p1[0];
  const d1y = p2[1] - p1[1];
  const d2x = p4[0] - p3[0];
  const d2y = p4[1] - p3[1];
  const den = d1x * d2y - d1y * d2x;
  if (den === 0) {
    // Parallel: collinear overlapping edges are a self-intersection too.
    const cross = (p3[0] - p1[0]) * d1y - (p3[1] - p1[1]) * d1x;
    if (cross !== 0) return null;
    const len = d1x * d1x + d1y * d1y;
    if (len === 0) return null;
    const t3 = ((p3[0] - p1[0]) * d1x + (p3[1] - p1[1]) * d1y) / len;
    const t4 = ((p4[0] - p1[0]) * d1x + (p4[1] - p1[1]) * d1y) / len;
    const lo = Math.max(0, Math.min(t3, t4));
    const hi = Math.min(1, Math.max(t3, t4));
    if (hi - lo <= 1e-12) return null;
    const t = (lo + hi) / 2;
    return [p1[0] + t * d1x, p1[1] + t * d1y];
  }
  const t = ((p3[0] - p1[0]) * d2y - (p3[1] - p1[1]) * d2x) / den;
  const u = ((p3[0] - p1[0]) * d1y - (p3[1] - p1[1]) * d1x) / den;
  if (t < 0 || t > 1 || u < 0 || u > 1) return null;
  return [p1[0] + t * d1x, p1[1] + t * d1y];
}

/** Two neighbouring edges that run back over each other (collinear, overlapping beyond their shared end). */
function foldBack(p1: LngLat, p2: LngLat, p3: LngLat, p4: LngLat): LngLat | null {
  const d1x = p2[0] - p1[0];
  const d1y = p2[1] - p1[1];
  const d2x = p4[0] - p3[0];
  const d2y = p4[1] - p3[1];
  if (d1x * d2y - d1y * d2x !== 0) return null;
  return segmentCrossing(p1, p2, p3, p4);
}

/**
 * The places where a ring crosses or touches itself (edges that are not neighbours). A valid ring has none; PostGIS's
 * ST_IsValid reports the first of them as "Self-intersection" (or "Ring Self-intersection" when it only touches).
 */
export function selfIntersections(ring: Ring): Crossing[] {
  const r = closeRing(ring);
  const n = r.length - 1; // edges
  const found: Crossing[] = [];
  if (n < 3) return found;
  // Edge bounding boxes first: a walk of a few hundred positions stays well under a millisecond.
  const box = new Array<[number, number, number, number]>(n);
  for (let i = 0; i < n; i++) {
    const a = r[i]!;
    const b = r[i + 1]!;
    box[i] = [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[0], b[0]), Math.max(a[1], b[1])];
  }
  for (let i = 0; i < n; i++) {
    const bi = box[i]!;
    for (let j = i + 1; j < n; j++) {
      const neighbours = j === i + 1 || (i === 0 && j === n - 1);
      const bj = box[j]!;
      if (bj[0] > bi[2] || bj[2] < bi[0] || bj[1] > bi[3] || bj[3] < bi[1]) continue;
      // Neighbours share one end, where they always "cross"; only a fold back along the same line is a problem.
      const at = neighbours ? foldBack(r[i]!, r[i + 1]!, r[j]!, r[j + 1]!) : segmentCrossing(r[i]!, r[i + 1]!, r[j]!, r[j + 1]!);
      if (at) found.push({ edgeA: i, edgeB: j, at });
    }
  }
  return found;
}

/** How many positions to drop from the end so that the ring no longer crosses itself (0 when it does not). */
export function pointsToDropForValidRing(positions: LngLat[]): number {
  for (let drop = 0; positions.length - drop >= 3; drop++) {
    if (selfIntersections(positions.slice(0, positions.length - drop)).length === 0) return drop;
  }
  return positions.length;
}

export type Bbox = [number, number, number, number];

export function bboxOf(rings: PolygonRings | PolygonRings[]): Bbox {
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  const walk = (v: unknown): void => {
    if (Array.isArray(v) && typeof v[0] === 'number') {
      const [x, y] = v as LngLat;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    } else if (Array.isArray(v)) v.forEach(walk);
  };
  walk(rings);
  return [minX, minY, maxX, maxY];
}

export const bboxesMeet = (a: Bbox, b: Bbox): boolean => !(a[0] > b[2] || a[2] < b[0] || a[1] > b[3] || a[3] < b[1]);

/** The area (m²) where two polygons (or multipolygons) overlap, and its shape. */
export function intersection(a: PolygonRings | PolygonRings[], b: PolygonRings | PolygonRings[]): { area: number; shape: PolygonRings[] } {
  if (!bboxesMeet(bboxOf(a), bboxOf(b))) return { area: 0, shape: [] };
  const shape = polygonClipping.intersection(a, b) as PolygonRings[];
  return { area: multiPolygonArea(shape), shape };
}

/**
 * A point plot drawn as a regular polygon of `vertices` corners around its centre with the declared area (m²): the
 * registry stores polygons, so a point plot travels as this polygon (docs/decisions/0065-field-app.md).
 */
export function circlePolygon(center: LngLat, areaSqm: number, vertices = 48): Ring {
  const r = Math.sqrt((2 * areaSqm) / (vertices * Math.sin((2 * Math.PI) / vertices)));
  const phi = center[1] * RAD;
  const s = Math.sin(phi);
  const w = 1 - E2 * s * s;
  const m = (A * (1 - E2)) / (w * Math.sqrt(w));
  const n = A / Math.sqrt(w);
  const ring: Ring = [];
  for (let k = 0; k < vertices; k++) {
    const t = (2 * Math.PI * k) / vertices;
    ring.push([center[0] + (r * Math.cos(t)) / (n * Math.cos(phi) * RAD), center[1] + (r * Math.sin(t)) / (m * RAD)]);
  }
  // Scale once more so the measured area is the declared one (the map is not exactly equal-area off the centre).
  const measured = polygonArea([closeRing(ring)]);
  const k = Math.sqrt(areaSqm / measured);
  return closeRing(ring.map(([x, y]) => [center[0] + (x - center[0]) * k, center[1] + (y - center[1]) * k] as LngLat));
}

/** Seconds as hh:mm:ss (hours may pass 24), the capture record's time_taken_to_map. */
export function hhmmss(totalSeconds: number): string {
  const s = Math.max(0, Math.round(totalSeconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (v: number) => String(v).padStart(2, '0');
  return `${pad(h)}:${pad(m)}:${pad(s % 60)}`;
}
