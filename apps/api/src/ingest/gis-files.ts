// Reads the GIS files an analysis accepts (issue 13) into plain rows, one per feature: a GeoJSON FeatureCollection, KML
// (and KMZ, zipped KML), and a zipped Shapefile (.shp + .dbf, .prj reprojected to WGS84 with proj4). Each row holds the
// feature's properties, farm_name (from the chosen property, else farm_name, name, or the first text property) and
// farm_coordinates (the feature's geometry as GeoJSON), which the analysis module's row check (analyses.rows.ts) then checks like any other row. Runs in
// the parse worker thread; every count is capped before the costly step, and hostile input is a ParseError (4xx).
import { XMLParser } from 'fast-xml-parser';
import { CrsUnsupported, resolveGeoJsonCrs, resolvePrj, type ResolvedCrs } from './crs.js';
import { canonicalKey, FORBIDDEN_KEYS, PLOT_BY_ROW } from './keys.js';
import { inflateMembers, type ZipMember } from './zip.js';

/** What the caller needs from read.ts (no import cycle: passed in). */
export type Limits = { maxRows: number; fail: (status: number, code: string, message: string) => Error };

type Row = Record<string, unknown>;
type Geometry = { type: string; coordinates?: unknown; geometries?: unknown } | null;

/** A feature → a row: its properties first (farm_name added in front when none names it), then farm_coordinates. */
export function featureRow(properties: Row, geometry: Geometry, nameField: string | undefined, limits: Limits): Row {
  const keys = Object.keys(properties);
  for (const k of keys) {
    if (FORBIDDEN_KEYS.has(k) || FORBIDDEN_KEYS.has(canonicalKey(k)))
      throw limits.fail(400, 'forbidden_column', `The property name ${JSON.stringify(k)} is not allowed`);
  }
  const row: Row = {};
  const hasName = keys.some((k) => canonicalKey(k) === 'farm_name');
  if (!hasName) {
    const chosen = nameField ? (keys.find((k) => k === nameField) ?? keys.find((k) => canonicalKey(k) === canonicalKey(nameField))) : undefined;
    const named = chosen ?? keys.find((k) => canonicalKey(k) === 'name') ?? keys.find((k) => typeof properties[k] === 'string' && properties[k].trim() !== '');
    // No text name (issue 28 §3): a numeric property (the feature id among them) names the plot, else "Plot <row>".
    const numbered = named === undefined ? keys.find((k) => typeof properties[k] === 'number' && Number.isFinite(properties[k])) : undefined;
    const value = named !== undefined ? properties[named] : numbered !== undefined ? String(properties[numbered]) : undefined;
    if (value === undefined || (typeof value === 'string' && value.trim() === '')) (row as Record<symbol, unknown>)[PLOT_BY_ROW] = true;
    else row['farm_name'] = value;
  }
  for (const k of keys) if (canonicalKey(k) !== 'farm_coordinates' || geometry === null) row[k] = properties[k];
  if (geometry !== null) row['farm_coordinates'] = geometry;
  return row;
}

export const tooMany = (limits: Limits) =>
  limits.fail(413, 'too_many_rows', `The file has more than ${limits.maxRows.toLocaleString('en')} features (one farm each); split it into several analyses`);

/** Counts matches of a pattern, stopping past the cap (so a 1M-feature file costs one scan, and no parse). */
function countAtMost(text: string, pattern: RegExp, cap: number): number {
  let n = 0;
  pattern.lastIndex = 0;
  while (pattern.exec(text) && n <= cap) n++;
  return n;
}

// ---------- coordinate systems ----------

/** Resolves a file's CRS (ingest/crs.ts); one that cannot be resolved to a transformation is a 400 crs_unsupported. */
export function crsOrFail(resolve: () => ResolvedCrs, what: string, limits: Limits): ResolvedCrs {
  try {
    return resolve();
  } catch (err) {
    if (err instanceof CrsUnsupported) {
      throw limits.fail(
        400,
        'crs_unsupported',
        `The ${what}'s coordinate system cannot be placed on WGS84: ${err.message}. Nothing was analysed; export the layer in WGS84 (EPSG:4326) or in an EPSG system with a datum transformation`,
      );
    }
    throw err;
  }
}

/** A few positions of the file (the first of the first geometries), where a .prj's projection is matched. */
export function samplePositions(geometries: Geometry[]): number[][] {
  const out: number[][] = [];
  for (const g of geometries) {
    let c: unknown = g?.coordinates;
    while (Array.isArray(c) && Array.isArray(c[0])) c = c[0];
    if (Array.isArray(c) && typeof c[0] === 'number' && typeof c[1] === 'number') out.push([c[0], c[1]]);
    if (out.length >= 3) break;
  }
  return out;
}

/** A geometry's positions through a transformation (null: unchanged). */
export function transformGeometry(g: Geometry, project: ((p: number[]) => number[]) | null): Geometry {
  if (!g || !project) return g;
  // A position that is not two numbers is kept as it is, for the row check to name.
  const walk = (c: unknown): unknown =>
    Array.isArray(c) && typeof c[0] !== 'object'
      ? typeof c[0] === 'number' && typeof c[1] === 'number'
        ? project(c as number[])
        : c
      : Array.isArray(c)
        ? c.map(walk)
        : c;
  return { type: g.type, coordinates: walk(g.coordinates) };
}

/** The transformation a GeoJSON document's "crs" member asks for (null: WGS84, the RFC 7946 default). */
export function geoJsonProjection(crs: unknown, limits: Limits): ((p: number[]) => number[]) | null {
  return crs === undefined ? null : crsOrFail(() => resolveGeoJsonCrs(crs), 'GeoJSON file', limits).toWgs84;
}

// ---------- GeoJSON ----------

/**
 * A FeatureCollection (or one Feature, or one geometry) → rows. A JSON list is read as features, or as locations like
 * the JSON endpoint's (objects with farm_name and farm_coordinates), so a .json saved from either form can be uploaded.
 * The whole-file reader: an upload is read in a stream (geojson-stream.ts, which must agree with this one row
 * for row, as its property test checks); this one still reads a top-level object without a features list (a Feature or
 * a geometry, bounded there) and the whole-buffer parseFile.
 */
export function readGeoJson(text: string, nameField: string | undefined, limits: Limits): Row[] {
  if (countAtMost(text, /"type"\s*:\s*"Feature"/g, limits.maxRows) > limits.maxRows) throw tooMany(limits);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw limits.fail(400, 'file_unreadable', `The GeoJSON file is not valid JSON (${err instanceof Error ? err.message.slice(0, 120) : 'unknown error'})`);
  }
  if (Array.isArray(doc)) {
    if (doc.length === 0) throw limits.fail(400, 'file_empty', 'The JSON list is empty');
    if (doc.length > limits.maxRows) throw tooMany(limits);
    return doc.map((item) => {
      if (item !== null && typeof item === 'object' && !Array.isArray(item) && (item as Row)['type'] !== 'Feature') {
        // A location as the JSON endpoint takes it: kept as it is (its keys checked like csv headers).
        return featureRow(item as Row, null, nameField, limits);
      }
      return featureOf(item, nameField, limits);
    });
  }
  if (doc === null || typeof doc !== 'object') throw limits.fail(400, 'file_unreadable', 'The GeoJSON file must hold a FeatureCollection');
  const o = doc as Row;
  const features: unknown[] =
    o['type'] === 'FeatureCollection'
      ? Array.isArray(o['features'])
        ? o['features']
        : []
      : o['type'] === 'Feature'
        ? [o]
        : typeof o['type'] === 'string' && 'coordinates' in o
          ? [{ type: 'Feature', properties: {}, geometry: o }]
          : [];
  if (o['type'] !== 'FeatureCollection' && features.length === 0)
    throw limits.fail(400, 'file_unreadable', 'The GeoJSON file must hold a FeatureCollection, a Feature or a geometry');
  if (features.length === 0) throw limits.fail(400, 'file_empty', 'The FeatureCollection has no features');
  if (features.length > limits.maxRows) throw tooMany(limits);
  // After the checks of the document's shape, as the stream reader (which meets "crs" anywhere) reports them.
  const project = geoJsonProjection(o['crs'], limits);
  return features.map((f) => featureOf(f, nameField, limits, project));
}

/** One item of a features list → its row (a non-object is a row whose geometry is named "not a Feature"). */
export function featureOf(f: unknown, nameField: string | undefined, limits: Limits, project: ((p: number[]) => number[]) | null = null): Row {
  if (f === null || typeof f !== 'object' || Array.isArray(f)) return featureRow({}, { type: 'not a Feature' }, nameField, limits);
  const feature = f as Row;
  const props =
    feature['properties'] && typeof feature['properties'] === 'object' && !Array.isArray(feature['properties']) ? { ...(feature['properties'] as Row) } : {};
  if (feature['id'] !== undefined && !('id' in props)) props['id'] = feature['id'];
  const geometry = feature['type'] === 'Feature' ? ((feature['geometry'] ?? null) as Geometry) : (feature as Geometry);
  return featureRow(props, project && geometry && typeof geometry === 'object' ? transformGeometry(geometry, project) : geometry, nameField, limits);
}

// ---------- KML ----------

type XmlNode = Record<string, unknown>;

const asArray = (v: unknown): unknown[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);
const textOf = (v: unknown): string =>
  typeof v === 'string' || typeof v === 'number' ? String(v) : v && typeof v === 'object' && '#text' in v ? String((v as XmlNode)['#text']) : '';

/** "lng,lat[,alt] lng,lat …" → positions (kept as numbers; bad values become NaN, which the row check reports). */
function kmlPositions(v: unknown): number[][] {
  return textOf(v)
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map((t) => t.split(',').slice(0, 2).map(Number));
}

function kmlPolygon(p: XmlNode): number[][][] {
  const ring = (b: unknown) => kmlPositions(((b as XmlNode | undefined)?.['LinearRing'] as XmlNode | undefined)?.['coordinates']);
  return [ring(asArray(p['outerBoundaryIs'])[0]), ...asArray(p['innerBoundaryIs']).map(ring)];
}

/** A Placemark's geometry as GeoJSON: Polygon, Point, a MultiGeometry of polygons (MultiPolygon); others are named. */
function kmlGeometry(pm: XmlNode): Geometry {
  const polygons = asArray(pm['Polygon']) as XmlNode[];
  const points = asArray(pm['Point']) as XmlNode[];
  const multi = asArray(pm['MultiGeometry'])[0] as XmlNode | undefined;
  if (multi) {
    const parts = asArray(multi['Polygon']) as XmlNode[];
    const others = Object.keys(multi).filter((k) => k !== 'Polygon' && !k.startsWith('@_') && k !== '#text');
    if (parts.length > 0 && others.length === 0) return { type: 'MultiPolygon', coordinates: parts.map(kmlPolygon) };
    return { type: 'GeometryCollection', geometries: [] };
  }
  if (polygons.length === 1) return { type: 'Polygon', coordinates: kmlPolygon(polygons[0]!) };
  if (points.length === 1) return { type: 'Point', coordinates: kmlPositions(points[0]!['coordinates'])[0] ?? [] };
  if (pm['LineString'] !== undefined || pm['LinearRing'] !== undefined) return { type: 'LineString', coordinates: [] };
  return null;
}

/** KML text → rows: one per Placemark (at any depth of Documents and Folders). */
export function readKml(text: string, nameField: string | undefined, limits: Limits): Row[] {
  // KML needs no DTD; refusing one rules out entity expansion (billion laughs) and external entities.
  if (/<!DOCTYPE|<!ENTITY/i.test(text))
    throw limits.fail(400, 'file_unreadable', 'The KML file declares a DTD or entities, which KML never needs; export it again');
  if (countAtMost(text, /<(?:[A-Za-z_][\w.-]*:)?Placemark[\s>/]/g, limits.maxRows) > limits.maxRows) throw tooMany(limits);
  let doc: XmlNode;
  try {
    doc = new XMLParser({
      ignoreAttributes: false,
      removeNSPrefix: true,
      parseTagValue: false,
      parseAttributeValue: false,
      processEntities: true,
      htmlEntities: false,
      trimValues: true,
    }).parse(text, true) as XmlNode;
  } catch (err) {
    throw limits.fail(400, 'file_unreadable', `The KML file is not well-formed XML (${err instanceof Error ? err.message.slice(0, 120) : 'unknown error'})`);
  }
  if (!doc['kml']) throw limits.fail(400, 'file_unreadable', 'The file is XML but not KML (no <kml> element)');
  const rows: Row[] = [];
  // Depth-first with an explicit stack, in document order.
  const stack: unknown[] = [doc['kml']];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!node || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push(node[i]);
      continue;
    }
    const n = node as XmlNode;
    const children: unknown[] = [];
    for (const [k, v] of Object.entries(n)) {
      if (k === 'Placemark') {
        for (const pm of asArray(v) as XmlNode[]) rows.push(placemarkRow(pm, nameField, limits));
      } else if (k === 'Document' || k === 'Folder') children.push(v);
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
    if (rows.length > limits.maxRows) throw tooMany(limits);
  }
  if (rows.length === 0) throw limits.fail(400, 'file_empty', 'The KML file has no Placemark');
  return rows;
}

function placemarkRow(pm: XmlNode, nameField: string | undefined, limits: Limits): Row {
  const props: Row = {};
  if (pm['name'] !== undefined) props['name'] = textOf(pm['name']);
  const ext = pm['ExtendedData'] as XmlNode | undefined;
  for (const d of asArray(ext?.['Data']) as XmlNode[]) {
    const key = d['@_name'];
    if (typeof key === 'string' && key !== '') props[key] = textOf(d['value']);
  }
  for (const sd of asArray(ext?.['SchemaData']) as XmlNode[]) {
    for (const d of asArray(sd['SimpleData']) as XmlNode[]) {
      const key = d['@_name'];
      if (typeof key === 'string' && key !== '') props[key] = textOf(d);
    }
  }
  if (pm['description'] !== undefined && !('description' in props)) props['description'] = textOf(pm['description']);
  return featureRow(props, kmlGeometry(pm), nameField, limits);
}

// ---------- zip (KMZ, Shapefile) ----------

/** The named members of a checked archive, inflated (ingest/zip.ts). */
function unzipEntries(buf: Uint8Array, entries: readonly ZipMember[], names: string[], label: string, limits: Limits): Record<string, Uint8Array> {
  return inflateMembers(buf, entries, names, { label: `The ${label} file`, fail: limits.fail });
}

function decodeUtf8OrLatin1(b: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(b);
  } catch {
    return new TextDecoder('latin1').decode(b);
  }
}

/** KMZ: the zipped KML (doc.kml, else the first .kml at the top level, else the first anywhere). */
export function readKmz(buf: Uint8Array, entries: ZipMember[], nameField: string | undefined, limits: Limits): Row[] {
  const kmls = entries.filter((e) => /\.kml$/i.test(e.name));
  const pick = kmls.find((e) => e.name.toLowerCase() === 'doc.kml') ?? kmls.find((e) => !/[/\\]/.test(e.name)) ?? kmls[0];
  if (!pick) throw limits.fail(400, 'file_unreadable', 'The .kmz file holds no .kml document');
  const files = unzipEntries(buf, entries, [pick.name], '.kmz', limits);
  const data = files[pick.name];
  if (!data) throw limits.fail(400, 'file_unreadable', 'The .kmz file is damaged');
  return readKml(decodeUtf8OrLatin1(data), nameField, limits);
}

// ---------- Shapefile ----------

/** Signed area ×2: positive for a counter-clockwise ring (x east, y north). */
function ringArea2(r: number[][]): number {
  let s = 0;
  for (let i = 0, j = r.length - 1; i < r.length; j = i++) s += (r[j]![0]! - r[i]![0]!) * (r[j]![1]! + r[i]![1]!);
  return s;
}

function inRing(p: number[], r: number[][]): boolean {
  let inside = false;
  for (let i = 0, j = r.length - 1; i < r.length; j = i++) {
    const [xi, yi] = r[i] as [number, number];
    const [xj, yj] = r[j] as [number, number];
    if (yi > p[1]! !== yj > p[1]! && p[0]! < ((xj - xi) * (p[1]! - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/**
 * Shapefile rings → GeoJSON: outer rings are clockwise, holes counter-clockwise (the format's rule); each hole goes to
 * the first outer ring holding its first vertex (a hole in none is read as an outer ring, as GDAL does).
 */
function shapeRings(rings: number[][][]): Geometry {
  const outers: number[][][][] = [];
  const holes: number[][][] = [];
  for (const r of rings) {
    if (ringArea2(r) < 0) outers.push([r]);
    else holes.push(r);
  }
  for (const h of holes) {
    const owner = outers.find((o) => h[0] && inRing(h[0], o[0]!));
    if (owner) owner.push(h);
    else outers.push([h]);
  }
  if (outers.length === 0) return null;
  return outers.length === 1 ? { type: 'Polygon', coordinates: outers[0] } : { type: 'MultiPolygon', coordinates: outers };
}

/** .shp bytes → one geometry per record (null shapes as null); coordinates in the file's own CRS. */
function readShp(b: Uint8Array, limits: Limits): Geometry[] {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const bad = () => limits.fail(400, 'file_unreadable', 'The .shp file is damaged');
  if (b.length < 100 || v.getInt32(0, false) !== 9994) throw bad();
  const out: Geometry[] = [];
  let o = 100;
  while (o + 8 <= b.length) {
    const len = v.getInt32(o + 4, false) * 2;
    const start = o + 8;
    if (len < 4 || start + len > b.length) throw bad();
    if (out.length >= limits.maxRows) throw tooMany(limits);
    const type = v.getInt32(start, true);
    if (type === 0) out.push(null);
    else if (type === 1 || type === 11 || type === 21) {
      if (len < 20) throw bad();
      out.push({ type: 'Point', coordinates: [v.getFloat64(start + 4, true), v.getFloat64(start + 12, true)] });
    } else if (type === 5 || type === 15 || type === 25) {
      if (len < 44) throw bad();
      const parts = v.getInt32(start + 36, true);
      const points = v.getInt32(start + 40, true);
      const pts = start + 44 + 4 * parts;
      if (parts < 0 || points < 0 || pts + 16 * points > start + len) throw bad();
      const rings: number[][][] = [];
      for (let p = 0; p < parts; p++) {
        const from = v.getInt32(start + 44 + 4 * p, true);
        const to = p + 1 < parts ? v.getInt32(start + 48 + 4 * p, true) : points;
        if (from < 0 || to > points || from > to) throw bad();
        const ring: number[][] = [];
        for (let k = from; k < to; k++) ring.push([v.getFloat64(pts + 16 * k, true), v.getFloat64(pts + 16 * k + 8, true)]);
        rings.push(ring);
      }
      out.push(shapeRings(rings));
    } else out.push({ type: type === 3 || type === 13 || type === 23 ? 'LineString' : 'MultiPoint', coordinates: [] });
    o = start + len;
  }
  return out;
}

/** .dbf bytes → one record of properties per row (deleted records kept as rows: the .shp still has their shape). */
function readDbf(b: Uint8Array, encoding: string | undefined, limits: Limits): Row[] {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const bad = () => limits.fail(400, 'file_unreadable', 'The .dbf file is damaged');
  if (b.length < 32) throw bad();
  const count = v.getUint32(4, true);
  const headerLen = v.getUint16(8, true);
  const recordLen = v.getUint16(10, true);
  if (count > limits.maxRows) throw tooMany(limits);
  const fields: Array<{ name: string; type: string; offset: number; length: number }> = [];
  let off = 1;
  for (let p = 32; p + 32 <= headerLen && b[p] !== 0x0d; p += 32) {
    const raw = b.subarray(p, p + 11);
    const end = raw.indexOf(0);
    const name = new TextDecoder('latin1').decode(end < 0 ? raw : raw.subarray(0, end)).trim();
    const length = b[p + 16]!;
    fields.push({ name, type: String.fromCharCode(b[p + 11]!), offset: off, length });
    off += length;
  }
  if (fields.length > 200) throw limits.fail(413, 'too_many_columns', 'The .dbf file has more than 200 fields');
  const decoder = encoding && /utf-?8/i.test(encoding) ? new TextDecoder('utf-8') : null;
  const text = (x: Uint8Array) => (decoder ? decoder.decode(x) : decodeUtf8OrLatin1(x));
  const rows: Row[] = [];
  for (let r = 0; r < count; r++) {
    const at = headerLen + r * recordLen;
    if (at + recordLen > b.length) throw bad();
    const row: Row = {};
    for (const f of fields) {
      const s = text(b.subarray(at + f.offset, at + f.offset + f.length)).trim();
      if (f.type === 'N' || f.type === 'F') row[f.name] = s === '' || Number.isNaN(Number(s)) ? null : Number(s);
      else if (f.type === 'L') row[f.name] = /^[YyTt]$/.test(s) ? true : /^[NnFf]$/.test(s) ? false : null;
      else row[f.name] = s;
    }
    rows.push(row);
  }
  return rows;
}

/** A zipped Shapefile → rows (properties from the .dbf, geometries from the .shp, reprojected per the .prj). */
export function readShapefileZip(buf: Uint8Array, entries: ZipMember[], nameField: string | undefined, limits: Limits): Row[] {
  const shps = entries.filter((e) => /\.shp$/i.test(e.name) && !/(^|[/\\])__MACOSX[/\\]/.test(e.name));
  if (shps.length === 0) throw limits.fail(400, 'file_unreadable', 'The .zip file holds no Shapefile (.shp)');
  if (shps.length > 1) throw limits.fail(400, 'file_unreadable', `The .zip file holds ${shps.length} Shapefiles; send one layer per analysis`);
  const base = shps[0]!.name.slice(0, -4);
  const sibling = (ext: string) => entries.find((e) => e.name.toLowerCase() === `${base}.${ext}`.toLowerCase())?.name;
  const dbfName = sibling('dbf');
  if (!dbfName) throw limits.fail(400, 'file_unreadable', 'The Shapefile has no .dbf (its attribute table); zip the .shp, .dbf and .prj together');
  const prjName = sibling('prj');
  const cpgName = sibling('cpg');
  const files = unzipEntries(buf, entries, [shps[0]!.name, dbfName, ...(prjName ? [prjName] : []), ...(cpgName ? [cpgName] : [])], '.zip', limits);
  const shp = files[shps[0]!.name];
  const dbf = files[dbfName];
  if (!shp || !dbf) throw limits.fail(400, 'file_unreadable', 'The .zip file is damaged');
  const geometries = readShp(shp, limits);
  const records = readDbf(dbf, cpgName ? decodeUtf8OrLatin1(files[cpgName] ?? new Uint8Array()) : undefined, limits);
  if (records.length !== geometries.length)
    throw limits.fail(400, 'file_unreadable', `The .shp has ${geometries.length} shapes but the .dbf ${records.length} records`);
  const prj = prjName ? decodeUtf8OrLatin1(files[prjName] ?? new Uint8Array()).trim() : '';
  // No .prj: the positions are taken as WGS84 (a metre-valued file then gets position_out_of_range rows saying so).
  const project = prj === '' ? null : crsOrFail(() => resolvePrj(prj, samplePositions(geometries)), 'Shapefile', limits).toWgs84;
  return records.map((props, i) => featureRow(props, transformGeometry(geometries[i] ?? null, project), nameField, limits));
}
