// Whether a plot lies outside its declared producer country (issue 29, `outside_country`): the country shapes the
// console already draws, Natural Earth 1:50m admin-0 countries as the npm package `world-atlas` 2 ships them (TopoJSON,
// keyed by ISO 3166-1 numeric code; Natural Earth is public domain, the package ISC), read from node_modules on first
// use and decoded here. The declared country may be given as alpha-2, alpha-3, numeric or English name (iso-3166.data.ts).
//
// The rule: a plot is outside when no position of it (the centre of its bounding box first, then each vertex) lies
// inside the country or within OUTSIDE_COUNTRY_TOLERANCE_M of its boundary. 1:50m boundaries are generalised (the
// TopoJSON is quantised to about 400 m × 190 m, and borders and coasts are simplified by a few hundred metres to a few
// km), so a plot near a border or a coast must not be flagged; swapped latitude and longitude, or a plot in another
// country, moves it tens to thousands of km. Distances are measured on a local equirectangular projection of a sphere
// of radius 6,371,008.8 m (the error is far below the tolerance at these distances). Points within a few km of the
// antimeridian are not handled specially.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { ISO_3166_1 } from './iso-3166.data.js';

/** A plot this close to its country's Natural Earth 1:50m boundary (or closer) is not flagged. */
export const OUTSIDE_COUNTRY_TOLERANCE_M = 5_000;

const M_PER_DEGREE = (6_371_008.8 * Math.PI) / 180;
/** Height of one latitude band of the segment index, in degrees. */
const BAND = 0.1;

/**
 * Countries with no shape of their own in Natural Earth's admin-0 countries, and shapes with no ISO numeric code there:
 * France's overseas departments are part of France's shape; Svalbard of Norway's; the Caribbean Netherlands of the
 * Netherlands'; Somaliland, Northern Cyprus and Australia's Indian Ocean territories have no code of their own.
 * Bouvet Island, Gibraltar, Tokelau, Tuvalu and the US minor outlying islands have no shape: they are not checked.
 */
const EXTRA_SHAPES: Record<string, Array<number | string>> = {
  GF: [250],
  GP: [250],
  MQ: [250],
  RE: [250],
  YT: [250],
  SJ: [578],
  BQ: [528],
  CC: ['Indian Ocean Ter.'],
  CX: ['Indian Ocean Ter.'],
  SO: ['Somaliland'],
  CY: ['N. Cyprus'],
};

type Topology = {
  transform: { scale: [number, number]; translate: [number, number] };
  arcs: number[][][];
  objects: { countries: { geometries: Array<{ id?: string; type: string; arcs: number[][] | number[][][]; properties: { name: string } }> } };
};

/** One country's boundary as segments, indexed by latitude band. */
type Shape = { x0: number; y0: number; x1: number; y1: number; seg: Float64Array; bands: Map<number, number[]> };

let topology: Topology | null = null;
let decodedArcs: Array<Array<[number, number]>> | null = null;
const shapes = new Map<string, Shape | null>();
const byCode = new Map<string, string>();

function load(): Topology {
  if (!topology) {
    const file = createRequire(import.meta.url).resolve('world-atlas/countries-50m.json');
    topology = JSON.parse(fs.readFileSync(file, 'utf8')) as Topology;
  }
  return topology;
}

/** The arcs as absolute longitude/latitude positions (TopoJSON: quantised, delta-encoded). */
function arcs(): Array<Array<[number, number]>> {
  if (!decodedArcs) {
    const t = load();
    const [sx, sy] = t.transform.scale;
    const [tx, ty] = t.transform.translate;
    decodedArcs = t.arcs.map((arc) => {
      let x = 0;
      let y = 0;
      return arc.map(([dx, dy]): [number, number] => {
        x += dx!;
        y += dy!;
        return [x * sx + tx, y * sy + ty];
      });
    });
  }
  return decodedArcs;
}

/** A ring from its arc indexes (a negative index ~i is arc i reversed; consecutive arcs share their joining position). */
function ring(indexes: number[]): Array<[number, number]> {
  const all = arcs();
  const out: Array<[number, number]> = [];
  for (const i of indexes) {
    const arc = i >= 0 ? all[i]! : [...all[~i]!].reverse();
    out.push(...(out.length > 0 ? arc.slice(1) : arc));
  }
  return out;
}

/** The alpha-2 code of a declared country (alpha-2, alpha-3, numeric or English name, any case); null when unknown. */
export function countryCode(value: unknown): string | null {
  if (byCode.size === 0) {
    for (const [a2, a3, num, name] of ISO_3166_1) {
      byCode.set(a2, a2);
      byCode.set(a3, a2);
      byCode.set(String(num), a2);
      byCode.set(name.toUpperCase(), a2);
    }
  }
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const key = String(value).trim().toUpperCase();
  return byCode.get(/^\d+$/.test(key) ? String(Number(key)) : key) ?? null;
}

/** The shape of a country by alpha-2 code (null: no Natural Earth shape). Built on first use, then kept. */
function shapeOf(alpha2: string): Shape | null {
  if (shapes.has(alpha2)) return shapes.get(alpha2)!;
  const entry = ISO_3166_1.find((c) => c[0] === alpha2);
  const wanted = new Set<string>([...(entry ? [String(entry[2])] : []), ...(EXTRA_SHAPES[alpha2] ?? []).map(String)]);
  const rings: Array<Array<[number, number]>> = [];
  for (const g of load().objects.countries.geometries) {
    if (!(g.id !== undefined && wanted.has(String(Number(g.id)))) && !wanted.has(g.properties.name)) continue;
    const polygons = (g.type === 'Polygon' ? [g.arcs] : g.arcs) as number[][][];
    for (const p of polygons) for (const r of p) rings.push(ring(r));
  }
  if (rings.length === 0) {
    shapes.set(alpha2, null);
    return null;
  }
  const n = rings.reduce((s, r) => s + r.length - 1, 0);
  const seg = new Float64Array(n * 4);
  const bands = new Map<number, number[]>();
  let k = 0;
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const r of rings) {
    for (let i = 0; i + 1 < r.length; i++, k++) {
      const [ax, ay] = r[i]!;
      const [bx, by] = r[i + 1]!;
      seg.set([ax, ay, bx, by], k * 4);
      x0 = Math.min(x0, ax, bx);
      x1 = Math.max(x1, ax, bx);
      y0 = Math.min(y0, ay, by);
      y1 = Math.max(y1, ay, by);
      for (let b = Math.floor(Math.min(ay, by) / BAND); b <= Math.floor(Math.max(ay, by) / BAND); b++) {
        let list = bands.get(b);
        if (!list) bands.set(b, (list = []));
        list.push(k);
      }
    }
  }
  const shape = { x0, y0, x1, y1, seg, bands };
  shapes.set(alpha2, shape);
  return shape;
}

/** Even-odd ray casting towards the east, over the segments of the point's latitude band. */
function inside(s: Shape, px: number, py: number): boolean {
  let odd = false;
  for (const k of s.bands.get(Math.floor(py / BAND)) ?? []) {
    const ax = s.seg[k * 4]!;
    const ay = s.seg[k * 4 + 1]!;
    const bx = s.seg[k * 4 + 2]!;
    const by = s.seg[k * 4 + 3]!;
    if (ay > py !== by > py && px < ax + ((py - ay) * (bx - ax)) / (by - ay)) odd = !odd;
  }
  return odd;
}

/** Whether the boundary passes within `tol` metres of the point (local equirectangular metres). */
function near(s: Shape, px: number, py: number, tol: number): boolean {
  const dLat = tol / M_PER_DEGREE;
  const cos = Math.max(Math.cos((py * Math.PI) / 180), 1e-6);
  const dLng = dLat / cos;
  if (px < s.x0 - dLng || px > s.x1 + dLng || py < s.y0 - dLat || py > s.y1 + dLat) return false;
  const tol2 = tol * tol;
  for (let b = Math.floor((py - dLat) / BAND); b <= Math.floor((py + dLat) / BAND); b++) {
    for (const k of s.bands.get(b) ?? []) {
      const ax = (s.seg[k * 4]! - px) * cos * M_PER_DEGREE;
      const ay = (s.seg[k * 4 + 1]! - py) * M_PER_DEGREE;
      const bx = (s.seg[k * 4 + 2]! - px) * cos * M_PER_DEGREE;
      const by = (s.seg[k * 4 + 3]! - py) * M_PER_DEGREE;
      const ex = bx - ax;
      const ey = by - ay;
      const len2 = ex * ex + ey * ey;
      const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, -(ax * ex + ay * ey) / len2));
      const cx = ax + t * ex;
      const cy = ay + t * ey;
      if (cx * cx + cy * cy <= tol2) return true;
    }
  }
  return false;
}

/** Whether one position is inside the country or within `tol` metres of its boundary. */
function within(s: Shape, px: number, py: number, tol: number): boolean {
  return inside(s, px, py) || near(s, px, py, tol);
}

/**
 * Whether a plot (its positions, [longitude, latitude]) lies outside the country `alpha2`: no position within the
 * country or the tolerance of its boundary. Null when the country has no shape (not checked).
 */
export function outsideCountry(alpha2: string, positions: ReadonlyArray<readonly number[]>, tol = OUTSIDE_COUNTRY_TOLERANCE_M): boolean | null {
  const s = shapeOf(alpha2);
  if (!s || positions.length === 0) return s ? false : null;
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const p of positions) {
    x0 = Math.min(x0, p[0]!);
    x1 = Math.max(x1, p[0]!);
    y0 = Math.min(y0, p[1]!);
    y1 = Math.max(y1, p[1]!);
  }
  // Far from the country's box (a swap, another continent): outside, without a test per position.
  const dLat = tol / M_PER_DEGREE;
  const dLng = dLat / Math.max(Math.min(Math.cos((y0 * Math.PI) / 180), Math.cos((y1 * Math.PI) / 180)), 1e-6);
  if (x1 < s.x0 - dLng || x0 > s.x1 + dLng || y1 < s.y0 - dLat || y0 > s.y1 + dLat) return true;
  if (within(s, (x0 + x1) / 2, (y0 + y1) / 2, tol)) return false;
  for (const p of positions) if (within(s, p[0]!, p[1]!, tol)) return false;
  return true;
}

/** Every position of a GeoJSON-like coordinates array (a point, a ring, polygons), flattened. */
export function positionsOf(coordinates: unknown): number[][] {
  const out: number[][] = [];
  const walk = (c: unknown) => {
    if (!Array.isArray(c)) return;
    if (typeof c[0] === 'number') out.push(c as number[]);
    else for (const x of c) walk(x);
  };
  walk(coordinates);
  return out;
}
