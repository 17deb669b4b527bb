// The datum transformations proj4js cannot apply (its towgs84 is a single 3- or 7-parameter Helmert transformation),
// written from the formulas of IOGP's Guidance Note 7-2 (EPSG): Molodensky-Badekas (EPSG methods 9636, 1063: a Helmert
// transformation whose rotation and scale act about an evaluation point), a chain of geocentric steps (a concatenated
// operation, as PROJ runs it: one geocentric conversion, the steps, one conversion back) and an NTv2 grid shift. Each
// maps longitude/latitude in degrees on the source datum's ellipsoid, at height 0 (PROJ's 2D pipelines push and pop
// the height), to WGS 84. docs/decisions/0097-proj-tie-break-for-datum-transformations.md
import { gridShift } from './datum-grids.js';

type Ellipsoid = { a: number; es: number };
const WGS84_ELLIPSOID: Ellipsoid = { a: 6378137, es: (2 - 1 / 298.257223563) / 298.257223563 };
const RAD = Math.PI / 180;
const ARCSEC = RAD / 3600;

/** The ellipsoid from its semi-major axis and inverse flattening (0: a sphere). */
export function ellipsoid(a: number, rf: number): Ellipsoid {
  const f = rf > 0 ? 1 / rf : 0;
  return { a, es: f * (2 - f) };
}

/** Geographic (degrees, height 0) → geocentric X, Y, Z in metres. */
function toGeocentric(lon: number, lat: number, { a, es }: Ellipsoid): [number, number, number] {
  const phi = lat * RAD;
  const lambda = lon * RAD;
  const sin = Math.sin(phi);
  const nu = a / Math.sqrt(1 - es * sin * sin);
  return [nu * Math.cos(phi) * Math.cos(lambda), nu * Math.cos(phi) * Math.sin(lambda), nu * (1 - es) * sin];
}

/** Geocentric → geographic degrees (latitude by fixed-point iteration to 1e-14 rad, far below a millimetre). */
function toGeographic([x, y, z]: number[], { a, es }: Ellipsoid): [number, number] {
  const p = Math.hypot(x!, y!);
  let phi = Math.atan2(z!, p * (1 - es));
  for (let i = 0; i < 20; i++) {
    const sin = Math.sin(phi);
    const nu = a / Math.sqrt(1 - es * sin * sin);
    const next = Math.atan2(z! + es * nu * sin, p);
    const done = Math.abs(next - phi) < 1e-14;
    phi = next;
    if (done) break;
  }
  return [Math.atan2(y!, x!) / RAD, phi / RAD];
}

/**
 * One geocentric step, its parameters as the generator writes them (position vector convention): tx, ty, tz (m), then
 * optionally rx, ry, rz (arc-seconds) and the scale difference (ppm), then optionally the evaluation point xp, yp, zp (m)
 * of Molodensky-Badekas. X' = T + Xp + (1 + s)·R·(X − Xp), R the small-angle rotation matrix (as PROJ's helmert and
 * molobadekas apply it); Xp = 0 for a Helmert transformation.
 */
function step(params: number[]): (x: number[]) => number[] {
  const [tx = 0, ty = 0, tz = 0, rx0 = 0, ry0 = 0, rz0 = 0, ds = 0, px = 0, py = 0, pz = 0] = params;
  const [rx, ry, rz] = [rx0 * ARCSEC, ry0 * ARCSEC, rz0 * ARCSEC];
  const m = 1 + ds * 1e-6;
  return ([x, y, z]) => {
    const [u, v, w] = [x! - px, y! - py, z! - pz];
    return [tx + px + m * (u - rz * v + ry * w), ty + py + m * (rz * u + v - rx * w), tz + pz + m * (-ry * u + rx * v + w)];
  };
}

/** A datum transformation's kind, as the generator writes it (datum-transformations.json). */
export type ShiftKind = 'helmert' | 'molodensky-badekas' | 'concatenated' | 'ntv2';

/**
 * The transformation as a function of longitude/latitude (degrees, source datum) → WGS 84 longitude/latitude. params:
 * the row's parameters (steps separated by ";" for a concatenation, the grid's file name for NTv2); it gives null outside
 * the grid. null: a grid the app does not carry.
 */
export function shiftToWgs84(kind: ShiftKind, params: string, source: Ellipsoid): ((lon: number, lat: number) => number[] | null) | null {
  if (kind === 'ntv2') return gridShift(params);
  const steps = params.split(';').map((s) => step(s.split(',').map(Number)));
  return (lon, lat) =>
    toGeographic(
      steps.reduce((x, f) => f(x), toGeocentric(lon, lat, source) as number[]),
      WGS84_ELLIPSOID,
    );
}
