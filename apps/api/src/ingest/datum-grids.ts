// The NTv2 grids the app carries (datum-grids.json, generated with datum-transformations.json by
// scripts/build-datum-transformations.mjs from the .gsb files of PROJ's proj-data): DHDN to WGS 84 (4), BETA2007, which
// PROJ applies in all of Germany. Applied as PROJ's hgridshift does forward: the position plus the shift interpolated
// bilinearly between the four nodes of its cell. docs/decisions/0097-proj-tie-break-for-datum-transformations.md
import data from './datum-grids.json' with { type: 'json' };

type Grid = { s: number; e: number; dlat: number; dlon: number; rows: number; cols: number; shifts: string };
const GRIDS = data.grids as Record<string, Grid>;
const decoded = new Map<string, Float32Array>();

function shiftsOf(name: string, g: Grid): Float32Array {
  let a = decoded.get(name);
  if (!a) {
    const bytes = Buffer.from(g.shifts, 'base64');
    a = new Float32Array(bytes.length / 4);
    for (let i = 0; i < a.length; i++) a[i] = bytes.readFloatLE(i * 4);
    decoded.set(name, a);
  }
  return a;
}

/**
 * The grid's shift as a function of longitude/latitude (degrees) → shifted longitude/latitude; null outside the grid
 * (PROJ's operation fails there). null for a grid the app does not carry.
 */
export function gridShift(name: string): ((lon: number, lat: number) => number[] | null) | null {
  const g = GRIDS[name];
  if (!g) return null;
  return (lon, lat) => {
    const shifts = shiftsOf(name, g);
    // NTv2 counts longitude positive west; nodes run from south to north, each row from east to west.
    const fy = (lat * 3600 - g.s) / g.dlat;
    const fx = (-lon * 3600 - g.e) / g.dlon;
    if (!(fy >= 0 && fy <= g.rows - 1 && fx >= 0 && fx <= g.cols - 1)) return null;
    const j = Math.min(Math.floor(fy), g.rows - 2);
    const i = Math.min(Math.floor(fx), g.cols - 2);
    const ty = fy - j;
    const tx = fx - i;
    const at = (r: number, c: number, k: number) => shifts[(r * g.cols + c) * 2 + k]!;
    const value = (k: number) => (1 - ty) * ((1 - tx) * at(j, i, k) + tx * at(j, i + 1, k)) + ty * ((1 - tx) * at(j + 1, i, k) + tx * at(j + 1, i + 1, k));
    return [lon - value(1) / 3600, lat + value(0) / 3600];
  };
}
