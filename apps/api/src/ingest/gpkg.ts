// Reads a GeoPackage (.gpkg, an SQLite database; OGC 12-128r19) into plain rows, one per feature, like the other GIS
// readers (gis-files.ts): the feature's columns as properties, farm_name chosen as for the other formats, farm_coordinates
// its geometry (gpkg-geometry.ts) reprojected to WGS84 through the same CRS handling (crs.ts). SQLite is sql.js (SQLite
// compiled to WebAssembly: no native build), which holds the whole file in memory, so the file is capped
// (MAX_GPKG_BYTES) and the rows by the whole-file readers' cap. One feature table per file; several are refused, naming
// them. Every failure is a ParseError (4xx) naming the file, and a damaged feature is named by its number and fid.
// docs/decisions/0091-geopackage-reader.md.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { resolveEpsg, resolvePrj, CrsUnsupported, type ResolvedCrs } from './crs.js';
import { crsOrFail, featureRow, samplePositions, tooMany, type Limits } from './gis-files.js';
import { BadBlob, readGpkgGeometry, type GeoJsonGeometry } from './gpkg-geometry.js';
import { isSqlite } from './file-type.js';
import { FORBIDDEN_KEYS } from './keys.js';
import { MAX_COLUMNS, MAX_IN_MEMORY_BYTES } from './limits.js';

/** Largest GeoPackage read (sql.js holds the file, and SQLite's pages of it, in memory). */
export const MAX_GPKG_BYTES = MAX_IN_MEMORY_BYTES;

type Row = Record<string, unknown>;
type Value = number | string | Uint8Array | null;
type Statement = { bind(values?: Value[]): boolean; step(): boolean; get(): Value[]; getColumnNames(): string[]; free(): boolean };
type Database = { prepare(sql: string): Statement; run(sql: string): void; export(): Uint8Array; close(): void };
type SqlJs = { Database: new (data?: Uint8Array) => Database };
// The WebAssembly global, typed here (the API's TypeScript libraries leave out the DOM's declarations of it).
type WasmModule = object;
type WasmInstance = { exports: object };
const Wasm = (
  globalThis as unknown as { WebAssembly: { Module: new (bytes: Uint8Array) => WasmModule; Instance: new (m: WasmModule, imports: object) => WasmInstance } }
).WebAssembly;
type InitSqlJs = (config: { instantiateWasm: (imports: object, done: (i: WasmInstance, m: WasmModule) => void) => object }) => Promise<SqlJs>;

const require = createRequire(import.meta.url);
let compiled: { path: string; module: WasmModule } | null = null;

/**
 * A new sql.js instance (its own WebAssembly memory, freed with it once the read is over: sql.js keeps one instance per
 * process otherwise, whose memory never shrinks). The module is compiled once and instantiated per read (~ms).
 */
export async function freshSqlJs(): Promise<SqlJs> {
  if (!compiled) {
    const path = require.resolve('sql.js/dist/sql-wasm.js');
    compiled = { path, module: new Wasm.Module(fs.readFileSync(path.replace(/\.js$/, '.wasm'))) };
  }
  const { path, module } = compiled;
  // sql-wasm.js caches its first instance in a module variable: load the script afresh for a new one.
  delete require.cache[path];
  const init = require(path) as InitSqlJs;
  return init({
    instantiateWasm: (imports, done) => {
      const instance = new Wasm.Instance(module, imports);
      done(instance, module);
      return instance.exports;
    },
  });
}

/** 413 file_too_large: the GeoPackage cap, named. */
export const gpkgTooLarge = (filename: string, limits: Limits) =>
  limits.fail(
    413,
    'file_too_large',
    `A GeoPackage file is read whole in memory, so it may hold at most ${MAX_GPKG_BYTES / 1048576} MB; ${JSON.stringify(filename.slice(0, 120))} is larger: split it, or send the layer as GeoJSON, which is read in a stream`,
  );

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** All rows of a query (small catalogue tables). */
function all(db: Database, sql: string, params: Value[] = []): Value[][] {
  const st = db.prepare(sql);
  try {
    st.bind(params);
    const out: Value[][] = [];
    while (st.step()) out.push(st.get());
    return out;
  } finally {
    st.free();
  }
}

/** The table's CRS from gpkg_spatial_ref_sys: by EPSG code, else by its WKT definition (matched as a .prj is). */
function layerCrs(db: Database, srsId: number, samples: number[][]): ResolvedCrs {
  // 0: "undefined geographic", read as WGS84 like a Shapefile without .prj (positions out of range are then named).
  if (srsId === 0) return resolveEpsg(4326);
  const [row] = all(db, 'SELECT srs_name, organization, organization_coordsys_id, definition FROM gpkg_spatial_ref_sys WHERE srs_id = ?', [srsId]);
  if (!row) throw new CrsUnsupported(`srs_id ${srsId}`, `the table's srs_id ${srsId} is not in gpkg_spatial_ref_sys`);
  const [name, org, orgId, definition] = row.map((v) => (v === null ? '' : String(v).trim()));
  const label = `${name || 'unnamed'} (${org || 'no organization'}:${orgId})`;
  if (srsId === -1 || /^undefined$/i.test(definition!)) {
    if (/^epsg$/i.test(org!) && Number(orgId) > 0) return resolveEpsg(Number(orgId), `EPSG:${orgId}`);
    throw new CrsUnsupported(label, `the coordinate system ${label} is undefined (no EPSG code and no definition)`);
  }
  if (/^epsg$/i.test(org!) && Number(orgId) > 0) {
    try {
      return resolveEpsg(Number(orgId), `EPSG:${orgId}`);
    } catch (err) {
      // A code the registry lacks: its definition may still match one it has.
      if (!(err instanceof CrsUnsupported) || !definition) throw err;
    }
  }
  try {
    return resolvePrj(definition!, samples);
  } catch (err) {
    if (err instanceof CrsUnsupported) throw new CrsUnsupported(label, `${label}: ${err.message.replace(/\bthe \.prj\b/g, 'the definition')}`);
    throw err;
  }
}

/** SQLite's "database size in pages" (header offset 28), when the header vouches for it, against the file's length. */
function truncated(buf: Uint8Array): boolean {
  if (buf.length < 100) return true;
  const v = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const raw = v.getUint16(16, false);
  const pageSize = raw === 1 ? 65536 : raw;
  const pages = v.getUint32(28, false);
  const valid = pages > 0 && v.getUint32(92, false) === v.getUint32(24, false);
  return valid && pages * pageSize > buf.length;
}

/** A GeoPackage file → rows (one per feature of its one feature table). filename: named in every message. */
export async function readGeoPackage(buf: Uint8Array, filename: string, nameField: string | undefined, limits: Limits): Promise<Row[]> {
  const file = JSON.stringify(filename.slice(0, 120));
  const unreadable = (why: string) => limits.fail(400, 'file_unreadable', `The GeoPackage file ${file} ${why}`);
  if (buf.length > MAX_GPKG_BYTES) throw gpkgTooLarge(filename, limits);
  if (!isSqlite(buf)) throw unreadable('is not an SQLite database (a GeoPackage is one)');
  if (truncated(buf)) throw unreadable('is truncated: its header counts more pages than the file holds; export it again');
  const SQL = await freshSqlJs();
  let db: Database;
  try {
    db = new SQL.Database(buf);
  } catch (err) {
    throw unreadable(`cannot be opened (${err instanceof Error ? err.message.slice(0, 120) : 'unknown error'})`);
  }
  try {
    return readTables(db, file, nameField, limits, unreadable);
  } catch (err) {
    // SQLite's own errors (a damaged page: "database disk image is malformed", "file is not a database").
    // sql.js throws plain Errors; this reader's own are ParseErrors (limits.fail).
    if (err instanceof Error && err.constructor === Error) throw unreadable(`is damaged (SQLite: ${err.message.slice(0, 120)}); export it again`);
    throw err;
  } finally {
    db.close();
  }
}

function readTables(db: Database, file: string, nameField: string | undefined, limits: Limits, unreadable: (why: string) => Error): Row[] {
  const hasContents = all(
    db,
    "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name IN ('gpkg_contents', 'gpkg_geometry_columns', 'gpkg_spatial_ref_sys')",
  );
  if (hasContents.length < 3)
    throw unreadable('is an SQLite database but not a GeoPackage (it lacks the gpkg_contents, gpkg_geometry_columns or gpkg_spatial_ref_sys table)');
  const tables = all(
    db,
    "SELECT c.table_name, g.column_name, g.srs_id FROM gpkg_contents c JOIN gpkg_geometry_columns g ON g.table_name = c.table_name WHERE c.data_type = 'features' ORDER BY c.rowid",
  );
  if (tables.length === 0) throw unreadable('holds no feature table (gpkg_contents lists none with data_type "features")');
  if (tables.length > 1) {
    const names = tables.map((t) => JSON.stringify(String(t[0]))).join(', ');
    throw unreadable(`holds ${tables.length} feature tables (${names.slice(0, 300)}); send one table per file, e.g. ogr2ogr -f GPKG one.gpkg ${file} <table>`);
  }
  const [table, geomColumn, srsId] = [String(tables[0]![0]), String(tables[0]![1]), Number(tables[0]![2])];
  const columns = all(db, `PRAGMA table_info(${quote(table)})`).map((c) => ({ name: String(c[1]), type: String(c[2] ?? '').toUpperCase(), pk: Number(c[5]) }));
  if (columns.length === 0) throw unreadable(`lists the feature table ${JSON.stringify(table)} but has no such table`);
  if (!columns.some((c) => c.name === geomColumn)) throw unreadable(`has no geometry column ${JSON.stringify(geomColumn)} in ${JSON.stringify(table)}`);
  const pk = columns.filter((c) => c.pk > 0);
  const fid = pk.length === 1 && pk[0]!.type === 'INTEGER' ? pk[0]!.name : null;
  const props = columns.filter((c) => c.name !== geomColumn && c.name !== fid);
  if (props.length > MAX_COLUMNS) throw limits.fail(413, 'too_many_columns', `The GeoPackage file ${file} has more than ${MAX_COLUMNS} columns`);
  for (const c of props) {
    if (FORBIDDEN_KEYS.has(c.name)) throw limits.fail(400, 'forbidden_column', `The property name ${JSON.stringify(c.name)} is not allowed`);
  }
  const count = Number(all(db, `SELECT count(*) FROM ${quote(table)}`)[0]![0]);
  if (count > limits.maxRows) throw tooMany(limits);
  if (count === 0) throw limits.fail(400, 'file_empty', `The GeoPackage file ${file} has no features (its table ${JSON.stringify(table)} is empty)`);
  const order = fid ? quote(fid) : 'rowid';
  // The CRS first (matched on the first positions when it is given as WKT), so each position is reprojected as it is read.
  const samples: GeoJsonGeometry[] = [];
  for (const [blob] of all(db, `SELECT ${quote(geomColumn)} FROM ${quote(table)} WHERE ${quote(geomColumn)} IS NOT NULL ORDER BY ${order} LIMIT 3`)) {
    try {
      samples.push(readGpkgGeometry(blob).geometry);
    } catch (err) {
      if (!(err instanceof BadBlob)) throw err; // named with its fid below
    }
  }
  const { toWgs84 } = crsOrFail(() => layerCrs(db, srsId, samplePositions(samples)), `GeoPackage file ${file}`, limits);
  const select = [order, quote(geomColumn), ...props.map((c) => quote(c.name))].join(', ');
  const st = db.prepare(`SELECT ${select} FROM ${quote(table)} ORDER BY ${order}`);
  const rows: Row[] = [];
  try {
    for (let n = 1; st.step(); n++) {
      const values = st.get();
      let geometry: GeoJsonGeometry;
      try {
        geometry = readGpkgGeometry(values[1], toWgs84).geometry;
      } catch (err) {
        if (!(err instanceof BadBlob)) throw err;
        const e = limits.fail(
          400,
          'file_unreadable',
          `Feature ${n} (fid ${String(values[0])}) of the GeoPackage file ${file} has a damaged geometry: ${err.message}; nothing was loaded`,
        );
        throw Object.assign(e, { feature: n });
      }
      const rec: Row = {};
      props.forEach((c, i) => {
        const v = values[i + 2];
        // A BLOB column (an image, a binary id) is no property a plot can show.
        if (v instanceof Uint8Array) return;
        rec[c.name] = c.type === 'BOOLEAN' && typeof v === 'number' ? v !== 0 : v;
      });
      rows.push(featureRow(rec, geometry, nameField, limits));
    }
  } finally {
    st.free();
  }
  return rows;
}
