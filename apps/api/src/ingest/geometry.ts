// Reads the geometry of one analysis row in every form GIS users hold it (issue 13): a JSON ring or list of rings, a
// GeoJSON Polygon, MultiPolygon or Point (bare or in a Feature), WKT POLYGON / MULTIPOLYGON / POINT, a bare [lng, lat]
// pair (a point) — as a value or as text in a cell — and writes it as hex EWKB (SRID 4326) for PostGIS. Nothing here
// computes geometry: rings are only closed and de-duplicated; validity, areas and relations are PostGIS's.

export type Position = [number, number];
export type Rings = Position[][];
/** A point, or one or more polygons (multi: it was given as a MultiPolygon, and is stored as one). */
export type InputGeometry = { kind: 'point'; p: Position } | { kind: 'polygons'; multi: boolean; polygons: Rings[] };

/** Unreadable input: the message says why, after "farm_coordinates: cannot read the coordinates: ". */
export class Unreadable extends Error {}
/** A readable geometry of a kind a farm cannot be (a LineString, a FeatureCollection in one cell, …). */
export class Unsupported extends Error {}

/** Longest farm_coordinates text read (characters); longer is unreadable. */
export const MAX_COORDINATES_CHARS = 512 * 1024;

function toNumber(v: unknown): number {
  const x = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
  if (!Number.isFinite(x)) throw new Unreadable(`${JSON.stringify(v)?.slice(0, 40) ?? String(v)} is not a number`);
  return x;
}

function toPosition(p: unknown): Position {
  if (!Array.isArray(p) || p.length < 2) throw new Unreadable('each position must be a [longitude, latitude] pair');
  return [toNumber(p[0]), toNumber(p[1])];
}

function toRing(r: unknown): Position[] {
  if (!Array.isArray(r)) throw new Unreadable('expected a list of [longitude, latitude] pairs');
  return r.map(toPosition);
}

function toRings(v: unknown, what: string): Rings {
  if (!Array.isArray(v) || v.length === 0) throw new Unreadable(`the ${what} has no coordinates`);
  return v.map(toRing);
}

const isScalar = (x: unknown) => typeof x === 'number' || typeof x === 'string';

/** GeoJSON object (geometry or Feature). */
function fromGeoJson(o: Record<string, unknown>, depth: number): InputGeometry {
  const type = o['type'];
  const coords = o['coordinates'];
  switch (type) {
    case 'Feature':
      if (depth > 0) throw new Unreadable('a Feature inside a Feature');
      if (o['geometry'] === null || o['geometry'] === undefined) throw new Unreadable('the Feature has no geometry');
      return readValue(o['geometry'], depth + 1);
    case 'Polygon':
      return { kind: 'polygons', multi: false, polygons: [toRings(coords, 'GeoJSON Polygon')] };
    case 'MultiPolygon':
      if (!Array.isArray(coords) || coords.length === 0) throw new Unreadable('the GeoJSON MultiPolygon has no coordinates');
      return { kind: 'polygons', multi: true, polygons: coords.map((p, i) => toRings(p, `GeoJSON MultiPolygon's part ${i + 1}`)) };
    case 'Point':
      return { kind: 'point', p: toPosition(coords) };
    case 'FeatureCollection':
      throw new Unsupported('a FeatureCollection holds several farms; upload it as a .geojson file (one row per feature)');
    case 'LineString':
    case 'MultiLineString':
    case 'MultiPoint':
    case 'GeometryCollection':
      throw new Unsupported(`a GeoJSON ${type} is not a farm; send a Polygon, a MultiPolygon or a Point`);
    default:
      throw new Unreadable(
        `a JSON object with type ${typeof type === 'string' ? JSON.stringify(type.slice(0, 40)) : 'missing'} is not GeoJSON; send a Polygon, a MultiPolygon, a Point or a Feature`,
      );
  }
}

// ---------- WKT ----------

const WKT_TOKEN = /\s*([A-Za-z]+|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|[(),;=])/y;

/** WKT (optionally EWKT with SRID=4326;) POINT, POLYGON or MULTIPOLYGON, with Z / M / ZM values ignored. */
export function parseWkt(text: string): InputGeometry {
  const tokens: string[] = [];
  text = text.trim();
  let at = 0;
  while (at < text.length) {
    WKT_TOKEN.lastIndex = at;
    const m = WKT_TOKEN.exec(text);
    if (!m) throw new Unreadable(`WKT: unexpected ${JSON.stringify(text.slice(at, at + 12).trim())} at character ${at + 1}`);
    tokens.push(m[1]!);
    at = WKT_TOKEN.lastIndex;
  }
  let i = 0;
  const peek = () => tokens[i];
  const next = (what: string) => {
    const t = tokens[i++];
    if (t === undefined) throw new Unreadable(`WKT: the text ends where ${what} was expected`);
    return t;
  };
  const expect = (t: string) => {
    const got = next(`"${t}"`);
    if (got !== t) throw new Unreadable(`WKT: expected "${t}" but found ${JSON.stringify(got)}`);
  };
  if (peek()?.toUpperCase() === 'SRID') {
    i++;
    expect('=');
    const srid = next('an SRID');
    expect(';');
    if (srid !== '4326') throw new Unreadable(`WKT: SRID ${srid} is not WGS84; send longitude and latitude (SRID 4326)`);
  }
  const type = next('a geometry type').toUpperCase();
  let dims = 2;
  const dim = peek()?.toUpperCase();
  if (dim === 'Z' || dim === 'M' || dim === 'ZM') {
    dims = dim === 'ZM' ? 4 : 3;
    i++;
  }
  if (peek()?.toUpperCase() === 'EMPTY') throw new Unreadable(`WKT: ${type} EMPTY has no coordinates`);
  const position = (): Position => {
    const p: number[] = [];
    while (peek() !== undefined && peek() !== ',' && peek() !== ')') {
      const t = next('a number');
      const x = Number(t);
      if (!Number.isFinite(x)) throw new Unreadable(`WKT: ${JSON.stringify(t.slice(0, 20))} is not a number`);
      p.push(x);
    }
    if (p.length < 2 || p.length > Math.max(dims, 4))
      throw new Unreadable(`WKT: a position needs ${dims === 2 ? 'two numbers (longitude latitude)' : `${dims} numbers`}, found ${p.length}`);
    return [p[0]!, p[1]!];
  };
  const list = <T>(item: () => T): T[] => {
    expect('(');
    const out = [item()];
    while (peek() === ',') {
      i++;
      out.push(item());
    }
    expect(')');
    return out;
  };
  const ring = () => list(position);
  const polygon = () => list(ring);
  let g: InputGeometry;
  if (type === 'POINT') g = { kind: 'point', p: list(position)[0]! };
  else if (type === 'POLYGON') g = { kind: 'polygons', multi: false, polygons: [polygon()] };
  else if (type === 'MULTIPOLYGON') g = { kind: 'polygons', multi: true, polygons: list(polygon) };
  else if (/^(LINESTRING|MULTILINESTRING|MULTIPOINT|GEOMETRYCOLLECTION|TRIANGLE|TIN|POLYHEDRALSURFACE|CIRCULARSTRING|CURVEPOLYGON|MULTISURFACE)$/.test(type))
    throw new Unsupported(`a WKT ${type} is not a farm; send a POLYGON, a MULTIPOLYGON or a POINT`);
  else throw new Unreadable(`expected JSON, GeoJSON or WKT (POLYGON, MULTIPOLYGON or POINT); found ${JSON.stringify(type.slice(0, 20))}`);
  if (i < tokens.length) throw new Unreadable(`WKT: unexpected ${JSON.stringify(tokens[i]!.slice(0, 20))} after the ${type}`);
  return g;
}

// ---------- any form ----------

function readValue(value: unknown, depth: number): InputGeometry {
  let v = value;
  if (typeof v === 'string') {
    const text = v.trim();
    if (text.startsWith('=')) throw new Unreadable('a formula cell is never evaluated; paste the coordinates as values');
    if (text.length > MAX_COORDINATES_CHARS) throw new Unreadable(`the text is longer than ${MAX_COORDINATES_CHARS} characters`);
    if (text.startsWith('{') || text.startsWith('[')) {
      try {
        v = JSON.parse(text);
      } catch {
        throw new Unreadable('expected JSON: a list of [longitude, latitude] pairs or a GeoJSON Polygon');
      }
    } else if (/^[A-Za-z]/.test(text)) {
      return parseWkt(text);
    } else {
      throw new Unreadable('expected a list of [longitude, latitude] pairs, GeoJSON or WKT');
    }
  }
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) return fromGeoJson(v as Record<string, unknown>, depth);
  if (!Array.isArray(v) || v.length === 0) throw new Unreadable('expected a list of [longitude, latitude] pairs or a GeoJSON Polygon');
  const first: unknown = v[0];
  // [lng, lat] is a point; [[lng, lat], …] one ring; [[[lng, lat], …], …] a list of rings (Polygon coordinates);
  // one level deeper, MultiPolygon coordinates.
  if (isScalar(first)) {
    if (v.length > 3) throw new Unreadable('each position must be a [longitude, latitude] pair');
    return { kind: 'point', p: toPosition(v) };
  }
  if (Array.isArray(first) && Array.isArray(first[0])) {
    if (Array.isArray(first[0][0])) return { kind: 'polygons', multi: true, polygons: v.map((p, i) => toRings(p, `part ${i + 1}`)) };
    return { kind: 'polygons', multi: false, polygons: [v.map(toRing)] };
  }
  return { kind: 'polygons', multi: false, polygons: [[toRing(v)]] };
}

/** Any accepted form → a point or polygons. Throws Unreadable or Unsupported. */
export function readGeometry(value: unknown): InputGeometry {
  return readValue(value, 0);
}

// ---------- EWKB ----------

const header = (b: Buffer, o: number, type: number, srid: boolean): number => {
  b.writeUInt8(1, o); // little endian
  b.writeUInt32LE(srid ? 0x20000000 | type : type, o + 1);
  if (srid) b.writeUInt32LE(4326, o + 5);
  return o + (srid ? 9 : 5);
};

const writeXY = (b: Buffer, o: number, p: Position): number => {
  b.writeDoubleLE(p[0] === 0 ? 0 : p[0], o);
  b.writeDoubleLE(p[1] === 0 ? 0 : p[1], o + 8);
  return o + 16;
};

const polygonBytes = (rings: Rings) => 4 + rings.reduce((s, r) => s + 4 + 16 * (r.length + 1), 0);

/** Open rings (no closing position) of one polygon, each closed here. */
function writePolygonBody(b: Buffer, o: number, rings: Rings): number {
  b.writeUInt32LE(rings.length, o);
  o += 4;
  for (const r of rings) {
    b.writeUInt32LE(r.length + 1, o);
    o += 4;
    for (let i = 0; i <= r.length; i++) o = writeXY(b, o, r[i === r.length ? 0 : i]!);
  }
  return o;
}

/**
 * The geometry as hex EWKB (SRID 4326): PostGIS reads it as `::geometry` ~6x faster than WKT. The values are the same
 * doubles WKT would round-trip to (-0 is written as 0, as WKT would print it). Polygon rings are open and closed here.
 */
export function toEwkbHex(g: InputGeometry): string {
  if (g.kind === 'point') {
    const b = Buffer.allocUnsafe(25);
    writeXY(b, header(b, 0, 1, true), g.p);
    return b.toString('hex');
  }
  if (!g.multi && g.polygons.length === 1) {
    const rings = g.polygons[0]!;
    const b = Buffer.allocUnsafe(9 + polygonBytes(rings));
    writePolygonBody(b, header(b, 0, 3, true), rings);
    return b.toString('hex');
  }
  const b = Buffer.allocUnsafe(13 + g.polygons.reduce((s, p) => s + 5 + polygonBytes(p), 0));
  let o = header(b, 0, 6, true);
  b.writeUInt32LE(g.polygons.length, o);
  o += 4;
  for (const p of g.polygons) o = writePolygonBody(b, header(b, o, 3, false), p);
  return b.toString('hex');
}
