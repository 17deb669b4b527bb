// Reads one input row of a custom analysis (a spreadsheet line or a JSON location) into a staged row: the name, the
// polygon as hex EWKB for PostGIS, the declared operational area and every input problem PostGIS need not see. No geometry is
// computed here: rings are only closed and de-duplicated as docs/design-rules.md prescribes, each repair a warning (issue 28); validity,
// areas and relations are PostGIS's.
import crypto from 'node:crypto';
import type { AnalysisRowError, AnalysisRowWarningCode } from '@farmland/contracts';
import { canonicalKey, PLOT_BY_ROW } from '../../ingest/keys.js';
import { readGeometry, toEwkbHex, Unreadable, Unsupported, type InputGeometry, type Position } from '../../ingest/geometry.js';
import { declaredOf, geolocationWarnings } from './analyses.declared.js';

/** Most vertices a polygon may have (all rings together); more is a row error, not a 4xx. */
export const MAX_VERTICES = 10_000;
export { MAX_COORDINATES_CHARS } from '../../ingest/geometry.js';

/** What PostGIS receives per row (short keys: 100k of these travel as jsonb batches). */
export type StagedRow = {
  /** 1-based position among the data rows (the header row is not counted). */
  n: number;
  name: string | null;
  /** The polygon as hex EWKB (SRID 4326) when the coordinates passed every input check; null otherwise. */
  wkb: string | null;
  oa: string | null;
  rd: Record<string, unknown>;
  errs: AnalysisRowError[];
  /** The first earlier row (of this staging pass) with the very same polygon and no input error; absent when none. */
  d?: number;
  /** A polygon read across the antimeridian (longitudes up to 360): PostGIS splits it at 180. Absent otherwise. */
  w?: true;
  /** The geometry is a point (no minimum size; recognized when a registry farm covers it). Absent otherwise. */
  pt?: true;
  /** The row's warning codes (issue 28: repairs and doubtful input), in a fixed order. Absent when none. */
  wa?: AnalysisRowWarningCode[];
  /** The declared area in m² (an area column, issue 29), of a polygon row: the classify statement adds area_mismatch. */
  da?: number;
};

/** Deepest nesting kept in row_data (a JSON location's own values); deeper values are replaced and reported. */
export const MAX_VALUE_DEPTH = 16;

// NUL, and UTF-16 surrogates that are not part of a pair: PostgreSQL's text and jsonb refuse both.
// eslint-disable-next-line no-control-regex -- NUL is exactly what must be found
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const REPLACEMENT = '\uFFFD';

/**
 * row_data as PostgreSQL can store it: unstorable characters (in keys or values) become U+FFFD, values nested deeper than
 * MAX_VALUE_DEPTH become null; each problem is reported once per top-level field. Iterative, so no input depth can
 * overflow the stack.
 */
export function storableRow(row: Record<string, unknown>): { row: Record<string, unknown>; errs: AnalysisRowError[] } {
  const errs: AnalysisRowError[] = [];
  const reported = new Set<string>();
  const report = (field: string, code: 'invalid_characters' | 'value_too_deep') => {
    const key = `${code}:${field}`;
    if (reported.has(key)) return;
    reported.add(key);
    errs.push(
      code === 'invalid_characters'
        ? { field, code, message: `${field}: contains a NUL character or an unpaired UTF-16 surrogate, which cannot be stored; it was replaced by \uFFFD` }
        : { field, code, message: `${field}: nested more than ${MAX_VALUE_DEPTH} levels deep; the deeper values were dropped` },
    );
  };
  const clean = (text: string, field: string) => {
    UNSTORABLE.lastIndex = 0;
    if (!UNSTORABLE.test(text)) return text;
    report(field, 'invalid_characters');
    UNSTORABLE.lastIndex = 0;
    return text.replace(UNSTORABLE, REPLACEMENT);
  };
  const out: Record<string, unknown> = {};
  // Work list of (value, where to put it, depth, top-level field name).
  type Slot = { value: unknown; put: (v: unknown) => void; depth: number; field: string };
  const stack: Slot[] = [];
  for (const key of Object.keys(row)) {
    const field = clean(key, key.replace(UNSTORABLE, REPLACEMENT) || 'row');
    stack.push({ value: row[key], put: (v) => (out[field] = v), depth: 1, field });
  }
  while (stack.length > 0) {
    const { value, put, depth, field } = stack.pop()!;
    if (typeof value === 'string') put(clean(value, field));
    else if (typeof value === 'number') put(Number.isFinite(value) ? value : null);
    else if (value === null || typeof value !== 'object') put(value ?? null);
    else if (depth >= MAX_VALUE_DEPTH) {
      report(field, 'value_too_deep');
      put(null);
    } else if (Array.isArray(value)) {
      const arr: unknown[] = new Array<unknown>(value.length).fill(null);
      put(arr);
      value.forEach((v, i) => stack.push({ value: v, put: (x) => (arr[i] = x), depth: depth + 1, field }));
    } else {
      const obj: Record<string, unknown> = {};
      put(obj);
      for (const k of Object.keys(value)) {
        const ck = clean(k, field);
        stack.push({ value: (value as Record<string, unknown>)[k], put: (x) => (obj[ck] = x), depth: depth + 1, field });
      }
    }
  }
  return { row: out, errs };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const FIELD_ALIASES: Record<string, 'farm_name' | 'farm_coordinates' | 'operational_area_id'> = {
  farm_name: 'farm_name',
  farm_coordinates: 'farm_coordinates',
  operational_area_id: 'operational_area_id',
  operational_area: 'operational_area_id',
};

export type RowFields = { farm_name: unknown; farm_coordinates: unknown; operational_area_id: unknown };

/** Picks the three known fields out of a row by canonical key; everything stays in row_data as given. */
export function fieldsOf(row: Record<string, unknown>): RowFields {
  const out: RowFields = { farm_name: undefined, farm_coordinates: undefined, operational_area_id: undefined };
  for (const key of Object.keys(row)) {
    const field = FIELD_ALIASES[canonicalKey(key)];
    if (field && out[field] === undefined) out[field] = row[key];
  }
  return out;
}

const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** What tidying found in a row's rings: each repair is a warning (docs/design-rules.md; issue 28). */
type Repairs = { closed: boolean; duplicates: boolean };

/**
 * Drops consecutive repeats and the closing position; returns the open ring (no closing position). A ring whose last
 * position was not its first (after repeats) was closed: repairs.closed; a dropped repeat: repairs.duplicates.
 */
function tidyRing(ring: Position[], repairs: Repairs): Position[] {
  const out: Position[] = [];
  for (const p of ring) {
    const last = out[out.length - 1];
    if (!last || last[0] !== p[0] || last[1] !== p[1]) out.push(p);
  }
  if (out.length < ring.length) repairs.duplicates = true;
  if (out.length > 1 && (out[0]![0] !== out[out.length - 1]![0] || out[0]![1] !== out[out.length - 1]![1])) repairs.closed = true;
  while (out.length > 1 && out[0]![0] === out[out.length - 1]![0] && out[0]![1] === out[out.length - 1]![1]) out.pop();
  return out;
}

/**
 * Whether a coordinate has 6 decimals or more: it is not a whole multiple of 1e-5 degrees. Tested on the number, so
 * trailing zeros written in the file do not count ("5.100000" is 5.1). The tolerance is far below 1e-6 and far above
 * the rounding error of x * 1e5 for |x| ≤ 360.
 */
const hasSixDecimals = (x: number) => Math.abs(x * 1e5 - Math.round(x * 1e5)) > 1e-6;

/** fewer_than_6_decimals: no coordinate of the geometry has 6 decimals or more (stops at the first that has). */
function coarse(g: InputGeometry): boolean {
  if (g.kind === 'point') return !hasSixDecimals(g.p[0]) && !hasSixDecimals(g.p[1]);
  for (const rings of g.polygons) {
    for (const ring of rings) {
      for (const p of ring) if (hasSixDecimals(p[0]) || hasSixDecimals(p[1])) return false;
    }
  }
  return true;
}

function distinctCount(ring: Position[]): number {
  // Farm rings are short: pairwise comparison avoids building a string per position (the staging hot spot).
  if (ring.length > 64) return new Set(ring.map((p) => `${p[0]},${p[1]}`)).size;
  let count = 0;
  for (let i = 0; i < ring.length; i++) {
    const p = ring[i]!;
    let seen = false;
    for (let j = 0; j < i && !seen; j++) seen = ring[j]![0] === p[0] && ring[j]![1] === p[1];
    if (!seen) count++;
  }
  return count;
}

const fmt = (x: number) => String(x);

function outOfRange(rings: Position[][], part: string): AnalysisRowError | null {
  let count = 0;
  let first: { p: Position; ring: number; index: number } | null = null;
  rings.forEach((ring, ri) =>
    ring.forEach((p, i) => {
      if (Math.abs(p[0]) > 180 || Math.abs(p[1]) > 90) {
        count++;
        first ??= { p, ring: ri, index: i };
      }
    }),
  );
  if (!first) return null;
  const { p, ring, index } = first as { p: Position; ring: number; index: number };
  const where = `position ${index + 1}${ring > 0 ? ` of hole ${ring}` : ''}${part} [${fmt(p[0])}, ${fmt(p[1])}]`;
  const hint =
    Math.abs(p[0]) > 180 || Math.abs(p[1]) > 180
      ? 'the values look like metres from a projected system; send WGS84 degrees'
      : 'latitude and longitude look swapped; send [longitude, latitude]';
  return {
    field: 'farm_coordinates',
    code: 'position_out_of_range',
    message: `farm_coordinates: ${where} is out of range (longitude within ±180, latitude within ±90)${count > 1 ? ` and so are ${count - 1} more` : ''}; ${hint}`,
  };
}

/**
 * An edge that spans 180° of longitude or more has no single meaning on the sphere (antipodal ends, or the way over a
 * pole), and PostGIS's geography refuses it ("Antipodal edge detected"); planar, it crosses the whole map. Farms never
 * have one: a ring that crosses the antimeridian is read as the small polygon it is (see antimeridian below) before this.
 */
function longEdge(rings: Position[][], part: string): AnalysisRowError | null {
  for (let ri = 0; ri < rings.length; ri++) {
    const ring = rings[ri]!;
    for (let i = 0; i < ring.length; i++) {
      const p = ring[i]!;
      const q = ring[(i + 1) % ring.length]!;
      if (Math.abs(q[0] - p[0]) >= 180) {
        return {
          field: 'farm_coordinates',
          code: 'edge_too_long',
          message: `farm_coordinates: the edge from [${fmt(p[0])}, ${fmt(p[1])}] to [${fmt(q[0])}, ${fmt(q[1])}]${ri > 0 ? ` of hole ${ri}` : ''}${part} spans 180° of longitude or more; a farm boundary cannot go over a pole or join antipodal points`,
        };
      }
    }
  }
  return null;
}

/** Most longitude a polygon read across the antimeridian may span (farms span far less than 1°). */
const ANTIMERIDIAN_SPAN = 10;

/**
 * A polygon whose edges jump across ±180 (Fiji, Chukotka) is the small polygon it is, not one spanning the globe: when
 * its rings, with their western longitudes moved by +360, have no long edge and span at most ANTIMERIDIAN_SPAN degrees,
 * they are staged that way (longitudes up to 360) and PostGIS splits the row at 180 into a MultiPolygon (ST_WrapX).
 */
function antimeridian(rings: Position[][]): Position[][] | null {
  const moved = rings.map((r) => r.map((p): Position => [p[0] < 0 ? p[0] + 360 : p[0], p[1]]));
  let lo = Infinity;
  let hi = -Infinity;
  for (const r of moved) {
    for (const p of r) {
      lo = Math.min(lo, p[0]);
      hi = Math.max(hi, p[0]);
    }
  }
  if (hi - lo > ANTIMERIDIAN_SPAN || hi <= 180) return null;
  return longEdge(moved, '') ? null : moved;
}

/** Checks one row. areaIds: the tenant's operational-area ids (lower case). Never throws on bad input. */
export function stageRow(n: number, input: Record<string, unknown>, areaIds: ReadonlySet<string>): StagedRow {
  const { row, errs } = storableRow(input);
  const f = fieldsOf(row);

  let name: string | null = null;
  if (isBlank(f.farm_name) && (input as Record<symbol, unknown>)[PLOT_BY_ROW] === true) {
    // A GIS feature with neither a text nor a numeric property (issue 28 §3): analysed, named by its row.
    name = `Plot ${n}`;
  } else if (isBlank(f.farm_name) || (typeof f.farm_name === 'object' && f.farm_name !== null)) {
    errs.push({ field: 'farm_name', code: 'name_missing', message: 'farm_name: the farm name is missing' });
  } else {
    name = String(f.farm_name).trim().slice(0, 500);
  }

  let oa: string | null = null;
  if (!isBlank(f.operational_area_id)) {
    const id = String(f.operational_area_id).trim().toLowerCase();
    if (UUID.test(id) && areaIds.has(id)) oa = id;
    else
      errs.push({
        field: 'operational_area_id',
        code: 'unknown_operational_area',
        message: `operational_area_id: ${JSON.stringify(String(f.operational_area_id).slice(0, 60))} is not one of your operational areas`,
      });
  }

  let wkb: string | null = null;
  let wrap = false;
  let point = false;
  let declaredArea: number | null = null;
  const warnings: AnalysisRowWarningCode[] = [];
  if (isBlank(f.farm_coordinates)) {
    errs.push({ field: 'farm_coordinates', code: 'coordinates_missing', message: 'farm_coordinates: the coordinates are missing' });
  } else {
    try {
      const input = readGeometry(f.farm_coordinates);
      const g = checkGeometry(input, errs, warnings);
      if (g) {
        wkb = toEwkbHex(g.geometry);
        wrap = g.wrap;
        point = g.geometry.kind === 'point';
        // Issue 29: the EU information system's checks that need the row's declared country and area.
        const declared = declaredOf(row);
        warnings.push(...geolocationWarnings(input, declared));
        if (!point) declaredArea = declared.areaSqm;
      }
    } catch (err) {
      if (err instanceof Unsupported) {
        errs.push({ field: 'farm_coordinates', code: 'unsupported_geometry', message: `farm_coordinates: ${err.message}` });
      } else {
        const why = err instanceof Unreadable ? err.message : 'unreadable value';
        errs.push({ field: 'farm_coordinates', code: 'coordinates_unreadable', message: `farm_coordinates: cannot read the coordinates: ${why}` });
      }
    }
  }
  const out: StagedRow = { n, name, wkb, oa, rd: row, errs };
  if (wrap) out.w = true;
  if (point) out.pt = true;
  if (warnings.length > 0) out.wa = warnings;
  if (declaredArea !== null) out.da = declaredArea;
  return out;
}

/**
 * The input checks of a geometry that need no geometry engine (vertex cap, ≥ 3 distinct positions per ring, ranges, long
 * edges); each problem is pushed to errs, each repair or doubtful input to warnings. Returns the geometry to store (rings tidied, a polygon across the antimeridian
 * moved east of 180) and whether PostGIS must split it at 180, or null when a problem was found.
 */
function checkGeometry(input: InputGeometry, errs: AnalysisRowError[], warnings: AnalysisRowWarningCode[]): { geometry: InputGeometry; wrap: boolean } | null {
  if (input.kind === 'point') {
    const range = outOfRange([[input.p]], '');
    if (range) errs.push({ ...range, message: range.message.replace('position 1 ', 'the point ') });
    if (coarse(input)) warnings.push('fewer_than_6_decimals');
    warnings.push('point_not_polygon');
    return range ? null : { geometry: input, wrap: false };
  }
  const repairs: Repairs = { closed: false, duplicates: false };
  const polygons = input.polygons.map((rings) => rings.map((r) => tidyRing(r, repairs)));
  if (repairs.closed) warnings.push('ring_closed');
  if (repairs.duplicates) warnings.push('duplicate_vertices_removed');
  if (coarse(input)) warnings.push('fewer_than_6_decimals');
  const vertices = polygons.reduce((s, p) => s + p.reduce((t, r) => t + r.length, 0), 0);
  if (vertices > MAX_VERTICES) {
    errs.push({
      field: 'farm_coordinates',
      code: 'too_many_positions',
      message: `farm_coordinates: ${vertices} positions; at most ${MAX_VERTICES} are accepted per farm`,
    });
    return null;
  }
  const multi = polygons.length > 1 || input.multi;
  let ok = true;
  let wrap = false;
  const staged: Position[][][] = [];
  for (let pi = 0; pi < polygons.length; pi++) {
    const rings = polygons[pi]!;
    const part = multi ? ` of part ${pi + 1}` : '';
    const fewest = Math.min(...rings.map(distinctCount));
    if (fewest < 3) {
      errs.push({
        field: 'farm_coordinates',
        code: 'too_few_positions',
        message: `farm_coordinates: a polygon ${rings.length > 1 ? 'ring ' : ''}${multi ? `(part ${pi + 1}) ` : ''}needs at least 3 distinct positions; found ${fewest}`,
      });
    }
    const range = outOfRange(rings, part);
    if (range) errs.push(range);
    let edge = fewest >= 3 && !range ? longEdge(rings, part) : null;
    let rings2 = rings;
    if (edge) {
      const moved = antimeridian(rings);
      if (moved) {
        rings2 = moved;
        wrap = true;
        edge = null;
      }
    }
    if (edge) errs.push(edge);
    if (fewest < 3 || range || edge) ok = false;
    staged.push(rings2);
  }
  if (!ok) return null;
  // A single polygon across the antimeridian becomes two parts: stored as a MultiPolygon.
  return { geometry: { kind: 'polygons', multi: input.multi, polygons: staged }, wrap };
}

/** Rows per staged line: the unit the pipeline groups into one statement. */
export const STAGE_LINE_ROWS = 100;

/**
 * Exact duplicates of one staging pass: polygon bytes and declared area → the first row without an input error that
 * has them. A row that repeats one already seen is staged with `d`: it gets its twin's verdict (copied when the twin is
 * stored already), and stays out of the overlap probe (it overlaps its twin, and everything its twin overlaps). Keys are
 * SHA-256 digests, so a 10,000-vertex polygon costs 32 bytes here.
 */
export type Duplicates = Map<string, number>;

/** Stages rows[from, to) (row numbers from+1 …) as one JSON array text: a line of the staged NDJSON. */
export function stageLine(rows: ReadonlyArray<Record<string, unknown>>, from: number, to: number, areaIds: ReadonlySet<string>, seen?: Duplicates): string {
  return stageRows(rows, from, to, from + 1, areaIds, seen);
}

/**
 * Stages rows[from, to) numbered first, first + 1, … (a streamed file hands over a window of its rows at a time) as one
 * JSON array text: a line of the staged NDJSON.
 */
export function stageRows(
  rows: ReadonlyArray<Record<string, unknown>>,
  from: number,
  to: number,
  first: number,
  areaIds: ReadonlySet<string>,
  seen?: Duplicates,
): string {
  const out: StagedRow[] = [];
  for (let i = from; i < to; i++) {
    const r = stageRow(first + (i - from), rows[i] ?? {}, areaIds);
    // Points are never twins: a point repeated is no overlap (a twin overlaps its first copy).
    if (seen && r.wkb && r.errs.length === 0 && !r.pt) {
      // The declared area takes part: it can change which area a farm is counted in, so only rows alike in both share a verdict.
      const key = crypto
        .createHash('sha256')
        .update(r.wkb)
        .update(`|${r.oa ?? ''}|${r.w ? 'w' : ''}`)
        .digest('base64');
      const first = seen.get(key);
      if (first === undefined) seen.set(key, r.n);
      else r.d = first;
    }
    out.push(r);
  }
  return JSON.stringify(out);
}
