// Every EPSG transformation to WGS 84 that PROJ considers and the reader can apply (Helmert, Molodensky-Badekas,
// concatenations of these, the NTv2 grids the app carries; docs/decisions/0037-crs-registry-from-postgis-spatial-ref-sys.md),
// generated into datum-transformations.json by scripts/build-datum-transformations.mjs from PROJ's proj.db, and the
// choice among them that PROJ makes. A row: [source geographic CRS, EPSG code, name, accuracy in m (-1: unknown),
// parameters (towgs84: position vector, arc-seconds, ppm; Molodensky-Badekas adds the evaluation point; a concatenation's
// steps separated by ";"; an NTv2 grid's file name), west, south, east, north of the area of use, offshore-only area (1),
// kind (absent: helmert)].
import data from './datum-transformations.json' with { type: 'json' };
import type { ShiftKind } from './datum-shift.js';

export type DatumTransformationRow = [number, number, string, number, string, number, number, number, number, 0 | 1, ShiftKind?];

export const DATUM_TRANSFORMATIONS = data.rows as DatumTransformationRow[];

/** The area of use of each source geographic CRS of the rows and of the projected CRSs on them: west, south, east, north. */
export const CRS_AREAS: Record<string, number[]> = data.crsAreas;

/** A longitude range as intervals within [-180, 180] (one crossing the antimeridian is two). */
const spans = (w: number, e: number): Array<[number, number]> =>
  w <= e
    ? [[w, e]]
    : [
        [w, 180],
        [-180, e],
      ];

/**
 * PROJ's measure of an area of use when it sorts transformations (getPseudoArea of the area intersected with the source
 * CRS's area of use, coordinateoperationfactory.cpp): degrees of longitude times the difference of the sines of the
 * latitudes. Without a known CRS area, the whole area.
 */
export function areaWithinCrs(source: number, w: number, s: number, e: number, n: number): number {
  const [cw, cs, ce, cn] = (CRS_AREAS[String(source)] ?? [w, s, e, n]) as [number, number, number, number];
  const south = Math.max(s, cs);
  const north = Math.min(n, cn);
  if (north <= south) return 0;
  let width = 0;
  for (const [a0, a1] of spans(w, e)) for (const [b0, b1] of spans(cw, ce)) width += Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));
  const rad = Math.PI / 180;
  return width * (Math.sin(north * rad) - Math.sin(south * rad));
}

/** One EPSG transformation to WGS 84 (datum-transformations.json) and its area of use. */
export type DatumTransformation = {
  code: number;
  name: string;
  accuracy: number;
  kind: ShiftKind;
  /** towgs84 for a Helmert transformation (proj4's +towgs84); see the row's description for the other kinds. */
  params: string;
  w: number;
  s: number;
  e: number;
  n: number;
  offshore: boolean;
};

let byGeographic: Map<number, DatumTransformation[]> | null = null;
const byCrs = new Map<number, DatumTransformation[]>();
/** The number of operations: the steps of a concatenation, else one. */
const operations = (t: DatumTransformation) => (t.kind === 'concatenated' ? t.params.split(';').length : 1);
/**
 * The number of steps of the operation's PROJ pipeline: one for a transformation that moves nothing (+proj=noop) and
 * for a grid (hgridshift); push, cart, each Helmert or Molodensky-Badekas step, inverse cart, pop otherwise.
 */
const pipelineSteps = (t: DatumTransformation) =>
  t.kind === 'ntv2' || (t.kind === 'helmert' && t.params.split(',').every((x) => Number(x) === 0)) ? 1 : 4 + operations(t);
/**
 * The EPSG transformations from geog to WGS 84 for a CRS on it (crs, the file's) whose area meets the CRS's area of use
 * (PROJ drops the others: Adindan's for Mali), in PROJ's order (SortFunction): known accuracy first, the larger area
 * within the CRS's area of use, the most accurate; at a tie one without a grid, the fewer operations (a concatenation
 * after a single transformation), the shorter pipeline (a null transformation is one step: GDA94 to WGS 84 (1) before
 * (2)), the shorter name, the name in descending byte order ("Amersfoort to WGS 84 (4)" before "(3)").
 * docs/decisions/0097-proj-tie-break-for-datum-transformations.md
 */
export function transformationsOf(geog: number | null, crs: number | null = geog): DatumTransformation[] {
  if (geog === null) return [];
  if (!byGeographic) {
    byGeographic = new Map();
    for (const [source, code, name, accuracy, params, w, s, e, n, offshore, kind = 'helmert'] of DATUM_TRANSFORMATIONS) {
      const t = { code, name, accuracy, kind, params, w, s, e, n, offshore: offshore === 1 };
      byGeographic.set(source, [...(byGeographic.get(source) ?? []), t]);
    }
  }
  const key = crs !== null && CRS_AREAS[String(crs)] ? crs : geog;
  let list = byCrs.get(key);
  if (!list) {
    const size = (t: DatumTransformation) => areaWithinCrs(key, t.w, t.s, t.e, t.n);
    list = (byGeographic.get(geog) ?? []).filter((t) => size(t) > 0);
    list.sort(
      (x, y) =>
        (x.accuracy < 0 ? 1 : 0) - (y.accuracy < 0 ? 1 : 0) ||
        size(y) - size(x) ||
        x.accuracy - y.accuracy ||
        (x.kind === 'ntv2' ? 1 : 0) - (y.kind === 'ntv2' ? 1 : 0) ||
        operations(x) - operations(y) ||
        pipelineSteps(x) - pipelineSteps(y) ||
        Buffer.byteLength(x.name) - Buffer.byteLength(y.name) ||
        (x.name > y.name ? -1 : x.name < y.name ? 1 : 0),
    );
    list = withoutUninteresting(list);
    byCrs.set(key, list);
  }
  return list;
}

/** Whether x's area of use contains y's (longitudes as intervals, the antimeridian handled). */
const contains = (x: DatumTransformation, y: DatumTransformation) =>
  x.s <= y.s && x.n >= y.n && spans(y.w, y.e).every(([b0, b1]) => spans(x.w, x.e).some(([a0, a1]) => a0 <= b0 && a1 >= b1));

/**
 * PROJ 9.1.1 drops, from its sorted list, an operation that brings nothing (FilterResults, removeUninterestingOps): one
 * whose area contains the last kept operation's, less accurate, with more operations (a concatenation after a single
 * transformation). Egypt 1907 to WGS 84 (2) (two Helmert steps, 6 m) is dropped after (4) (Molodensky-Badekas, 1.2 m, the same
 * area); Indian 1960 to WGS 84 (1) (26 m) stays after (2) (44 m).
 */
function withoutUninteresting(list: DatumTransformation[]): DatumTransformation[] {
  const kept: DatumTransformation[] = [];
  for (const t of list) {
    const last = kept[kept.length - 1];
    if (last && contains(t, last) && t.accuracy > last.accuracy && operations(t) > operations(last)) continue;
    kept.push(t);
  }
  return kept;
}

const holds = (t: DatumTransformation, lon: number, lat: number) =>
  lat >= t.s && lat <= t.n && (t.w <= t.e ? lon >= t.w && lon <= t.e : lon >= t.w || lon <= t.e);
const inside = (x: DatumTransformation, y: DatumTransformation) =>
  x.w >= y.w && x.s >= y.s && x.e <= y.e && x.n <= y.n && (x.w !== y.w || x.s !== y.s || x.e !== y.e || x.n !== y.n);

/**
 * The transformation PROJ applies at a position (longitude, latitude on the source datum), as proj_trans picks among
 * the operations proj_create_crs_to_crs found: of those whose area of use holds the position, the most accurate; at equal
 * accuracy the one whose area lies inside the other's; an offshore-only area never displaces another. null: no area holds
 * the position (the registry's own towgs84 is used then).
 */
export function transformationAt(list: DatumTransformation[], lon: number, lat: number): DatumTransformation | null {
  let best: DatumTransformation | null = null;
  for (const t of list) {
    if (!holds(t, lon, lat)) continue;
    if (!best) {
      best = t;
      continue;
    }
    if (t.offshore || t.accuracy < 0) continue;
    if (best.accuracy < 0 || t.accuracy < best.accuracy || (t.accuracy === best.accuracy && inside(t, best))) best = t;
  }
  return best;
}
