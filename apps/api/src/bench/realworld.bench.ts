// `npm run check:realworld -- <dir> [--port 4341] [--pg postgres://postgres@127.0.0.1:5432/postgres] [--keep] [--verbose]`
// Issue 28's check on real parcel files: every file of <dir> (a zipped Shapefile, GeoJSON, KML or KMZ, as a user uploads
// them) goes through the analysis of the built server on the embedded default (its own port and data directory,
// as the other benches start it), and every analysed row is compared with two references that are not the code under
// test:
//  (a) GDAL/PROJ: `ogr2ogr -t_srs EPSG:4326` of the same file; every vertex of the row within 0.05 m of GDAL's;
//  (b) native PostGIS (the PostgreSQL at --pg, a scratch database created and dropped here): the file loaded by
//      ogr2ogr in its own CRS, reprojected by PostGIS's ST_Transform and measured as the platform measures a row
//      (decision 0055: ST_Area(geom::geography), geodesic on the WGS 84 spheroid); areas within 1e-6 relative, and
//      the same validity (a row the platform fails as invalid_polygon is one PostGIS calls invalid).
// It reports per file: rows, worst position delta, worst area delta, rows named "Plot n" and rows with name_missing,
// overlap pairs grouped and sliver pairs under the tolerance, warnings by code; then a table. The exit code is 1 when
// a row disagrees (position, area, validity, a missing row, a refused file, or name_missing on a GIS file).
// The tenant's minimum farm size is set to 0 first, so that every polygon is measured (at the default of 100 m² a
// smaller parcel is an error row without a geometry); the overlap tolerance stays at its defaults (1 m², 1 %).
// Not part of CI: it needs gdal-bin and a PostgreSQL with PostGIS.
/* eslint-disable @typescript-eslint/no-explicit-any -- the check reads the API's and GDAL's JSON untyped, as any client would */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { DEMO_ACCOUNTS } from '../seed/seed-demo.js';
import { builtServerEnv, apiAt, signInEnrolling, startServer, stopServer, type Answer, type Server } from './http.js';

const args = process.argv.slice(2);
const arg = (name: string, dflt: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] && !args[i + 1]!.startsWith('--') ? args[i + 1]! : dflt;
};
/** The directory: the one argument that is neither an option nor the value of --port or --pg. */
const DIR = args.find((a, i) => !a.startsWith('--') && !['--port', '--pg'].includes(args[i - 1] ?? ''));
const PORT = Number(arg('port', '4341'));
const PG_URL = arg('pg', process.env['REALWORLD_PG_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const VERBOSE = args.includes('--verbose');
/** The targets of issue 28's check. */
const MAX_POSITION_M = 0.05;
const MAX_AREA_REL = 1e-6;
const UPLOADABLE = /\.(zip|geojson|json|kml|kmz)$/i;

type Ring = Array<[number, number]>;
type Polys = Ring[][];

/** A GeoJSON geometry as polygons of rings (a Point is one ring of one position); consecutive repeated positions dropped. */
function polygonsOf(g: any, atApiPrecision = false): Polys {
  if (!g) return [];
  // The API sends 7 decimals (ST_AsGeoJSON(geom, 7)): two of GDAL's positions closer than that are one position there.
  const key = (p: number[]) => (atApiPrecision ? `${p[0]!.toFixed(7)} ${p[1]!.toFixed(7)}` : `${p[0]} ${p[1]}`);
  const clean = (ring: number[][]): Ring => {
    const out: Ring = [];
    for (const p of ring) {
      const last = out[out.length - 1];
      if (!last || key(last) !== key(p)) out.push([p[0]!, p[1]!]);
    }
    // closed for comparison: the platform closes an open ring (ring_closed), GDAL keeps it as written
    if (out.length > 1 && (out[0]![0] !== out[out.length - 1]![0] || out[0]![1] !== out[out.length - 1]![1])) out.push([out[0]![0], out[0]![1]]);
    return out;
  };
  switch (g.type) {
    case 'Point':
      return [[[[g.coordinates[0], g.coordinates[1]]]]];
    case 'Polygon':
      return [g.coordinates.map(clean)];
    case 'MultiPolygon':
      return g.coordinates.map((p: number[][][]) => p.map(clean));
    case 'GeometryCollection':
      return g.geometries.flatMap((x: any) => polygonsOf(x, atApiPrecision));
    default:
      return [];
  }
}

/** Metres between two nearby lon/lat positions on the WGS 84 ellipsoid (local radii of curvature). */
function metres(a: [number, number], b: [number, number]): number {
  const lat = (((a[1] + b[1]) / 2) * Math.PI) / 180;
  const e2 = 0.00669437999014;
  const w = Math.sqrt(1 - e2 * Math.sin(lat) ** 2);
  const M = (6378137 * (1 - e2)) / w ** 3;
  const N = 6378137 / w;
  let dLon = b[0] - a[0];
  if (dLon > 180) dLon -= 360;
  if (dLon < -180) dLon += 360;
  const dx = ((dLon * Math.PI) / 180) * N * Math.cos(lat);
  const dy = (((b[1] - a[1]) * Math.PI) / 180) * M;
  return Math.hypot(dx, dy);
}

/**
 * The worst vertex distance between the platform's geometry and GDAL's: position by position when both have the same
 * polygons, rings and vertex counts (same order), else (structure differs) the larger of the two one-sided nearest-vertex
 * distances, reported as such.
 */
function positionDelta(mine: Polys, theirs: Polys): { m: number; sameShape: boolean } {
  const same = mine.length === theirs.length && mine.every((p, i) => p.length === theirs[i]!.length && p.every((r, j) => r.length === theirs[i]![j]!.length));
  if (same) {
    let worst = 0;
    mine.forEach((p, i) => p.forEach((r, j) => r.forEach((v, k) => (worst = Math.max(worst, metres(v, theirs[i]![j]![k]!))))));
    return { m: worst, sameShape: true };
  }
  const a = mine.flat(2);
  const b = theirs.flat(2);
  const oneSided = (xs: Ring, ys: Ring) => xs.reduce((w, x) => Math.max(w, ys.reduce((n, y) => Math.min(n, metres(x, y)), Infinity)), 0);
  return { m: a.length === 0 || b.length === 0 ? Infinity : Math.max(oneSided(a, b), oneSided(b, a)), sameShape: false };
}

/** The source GDAL reads for an upload: a Shapefile inside a zip through /vsizip/, a KMZ through /vsizip/ too. */
function gdalSource(file: string): string {
  if (/\.zip$/i.test(file)) {
    const shp = execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' }).split('\n').find((n) => /\.shp$/i.test(n));
    if (!shp) throw new Error(`${path.basename(file)}: no .shp in the zip`);
    return `/vsizip/${file}/${shp}`;
  }
  if (/\.kmz$/i.test(file)) return `/vsizip/${file}`;
  return file;
}

/** GDAL/PROJ's reprojection of the file to EPSG:4326 (lon/lat), as GeoJSON features in file order. */
function gdalFeatures(src: string): any[] {
  const out = execFileSync('ogr2ogr', ['-f', 'GeoJSON', '-t_srs', 'EPSG:4326', '-lco', 'RFC7946=NO', '-lco', 'COORDINATE_PRECISION=12', '/vsistdout/', src], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return JSON.parse(out).features as any[];
}

type PgRow = { n: number; srid: number; area: number | null; noise: number; valid: boolean; reason: string | null };

/**
 * PostGIS's own repeatability of a geodesic area: the same polygon moved by 1e-13, 3e-13 and 1e-12 degrees (0.01 to 0.1 µm) four ways each. For small
 * parcels the spheroidal area's rounding is larger than 1e-6 of the area (a 4 m² parcel's area moves by 2e-5 m² for a
 * 1e-13-degree move of its vertices, and PostGIS 3.3 and 3.6 answer 7e-7 apart for the same bytes); an area difference
 * within twice this spread is PostGIS disagreeing with itself, counted apart ("within PostGIS's own noise").
 */
const NOISE_SHIFTS = [1e-13, 3e-13, 1e-12].flatMap((d) => [
  [d, 0],
  [0, d],
  [-d, d],
  [d, -d],
]);

/** The file loaded by ogr2ogr into the scratch database in its own CRS; PostGIS's reprojection, validity and geodesic area per row. */
async function postgisRows(client: pg.Client, dbUrl: string, src: string, table: string): Promise<PgRow[]> {
  const u = new URL(dbUrl);
  const conn = `PG:host=${u.hostname} port=${u.port || 5432} dbname=${u.pathname.slice(1)} user=${decodeURIComponent(u.username)}${u.password ? ` password=${decodeURIComponent(u.password)}` : ''}`;
  // Rows keep the file's order: ogr2ogr numbers them from 1 as it reads them (fid), which is the platform's row_number.
  execFileSync('ogr2ogr', ['-f', 'PostgreSQL', conn, src, '-nln', table, '-lco', 'GEOMETRY_NAME=geom', '-lco', 'FID=fid', '-lco', 'SPATIAL_INDEX=NONE', '-lco', 'PRECISION=NO', '-nlt', 'GEOMETRY', '-overwrite'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const res = await client.query(`
    SELECT fid AS n, ST_SRID(geom) AS srid, ST_IsValid(t) AS valid, CASE WHEN NOT ST_IsValid(t) THEN ST_IsValidReason(t) END AS reason,
           a AS area, greatest(${NOISE_SHIFTS.map(([x, y]) => `abs(ST_Area(ST_Translate(t, ${x}, ${y})::geography) - a)`).join(', ')}) AS noise
      FROM (SELECT fid, geom, t, ST_Area(t::geography) AS a FROM (SELECT fid, geom, ST_Transform(geom, 4326) AS t FROM "${table}") y) x ORDER BY fid`);
  return res.rows.map((r: any) => ({ n: Number(r.n), srid: Number(r.srid), area: r.area === null ? null : Number(r.area), noise: Number(r.noise ?? 0), valid: r.valid, reason: r.reason }));
}

/** POST /custom-analysis/ as the console sends a file (multipart: name, operational_areas, file). */
function upload(base: string, token: string, file: string, areaId: string): Promise<{ status: number; body: any }> {
  const boundary = `----realworld${crypto.randomBytes(8).toString('hex')}`;
  const field = (k: string, v: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
  const body = Buffer.concat([
    Buffer.from(field('name', `realworld ${path.basename(file)}`) + field('operational_areas', areaId)),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${path.basename(file)}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    fs.readFileSync(file),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const url = new URL('/api/custom-analysis/', base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { method: 'POST', hostname: url.hostname, port: url.port, path: url.pathname, headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': body.length } },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => {
          const text = Buffer.concat(parts).toString();
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) });
          } catch {
            resolve({ status: res.statusCode ?? 0, body: text });
          }
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Every row of a result list, read whole through its cursor (?after=). */
async function readList(server: Server, token: string, id: string, kind: string): Promise<any[]> {
  const api = apiAt(server.base);
  const rows: any[] = [];
  let after: number | null = 0;
  while (after !== null) {
    const r: Answer = await api('GET', `/api/custom-analysis/${id}/${kind}/?page_size=100&after=${after}`, token);
    if (r.status !== 200) throw new Error(`${kind} list: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
    rows.push(...(r.body.data.results as any[]));
    after = r.body.data.next_after ?? null;
  }
  return rows;
}

type FileResult = {
  file: string;
  bytes: number;
  crs: string;
  status: string;
  rows: number;
  compared: number;
  worstPosM: number;
  worstPosRow: number | null;
  shapeDiffers: number;
  worstAreaRel: number;
  worstAreaRow: number | null;
  worstAreaSqm: number;
  areaWithinNoise: number;
  noiseNotes: string[];
  validityMismatch: number;
  plotNamed: number;
  nameMissing: number;
  errorRows: Record<string, number>;
  overlapGroupedPairs: number;
  overlapSliverPairs: number;
  largestSliverSqm: number;
  overlappingRows: number;
  warnings: Record<string, number>;
  withWarnings: number;
  problems: string[];
};

async function checkFile(server: Server, token: string, areaId: string, client: pg.Client, dbUrl: string, file: string, index: number): Promise<FileResult> {
  const name = path.basename(file);
  const res: FileResult = {
    file: name,
    bytes: fs.statSync(file).size,
    crs: '',
    status: '',
    rows: 0,
    compared: 0,
    worstPosM: 0,
    worstPosRow: null,
    shapeDiffers: 0,
    worstAreaRel: 0,
    worstAreaRow: null,
    worstAreaSqm: 0,
    areaWithinNoise: 0,
    noiseNotes: [],
    validityMismatch: 0,
    plotNamed: 0,
    nameMissing: 0,
    errorRows: {},
    overlapGroupedPairs: 0,
    overlapSliverPairs: 0,
    largestSliverSqm: 0,
    overlappingRows: 0,
    warnings: {},
    withWarnings: 0,
    problems: [],
  };
  const src = gdalSource(file);
  const gdal = gdalFeatures(src);
  const ref = await postgisRows(client, dbUrl, src, `f${index}`);
  const srids = [...new Set(ref.map((r) => r.srid))];
  res.crs = `EPSG:${srids.join('/')}`;
  if (srids.includes(0)) res.problems.push('ogr2ogr found no EPSG code for the file: PostGIS cannot reproject it');

  const up = await upload(server.base, token, file, areaId);
  if (up.status !== 201) {
    res.status = `refused ${up.status}`;
    res.problems.push(`upload ${up.status}: ${JSON.stringify(up.body).slice(0, 300)}`);
    return res;
  }
  const id = up.body.data.id as string;
  const api = apiAt(server.base);
  let d: any;
  for (const t0 = Date.now(); ; ) {
    d = (await api('GET', `/api/custom-analysis/${id}/`, token)).body?.data;
    if (d && (d.status === 'completed' || d.status === 'failed')) break;
    if (Date.now() - t0 > 600_000) throw new Error(`${name}: not settled in 10 min`);
    await new Promise((r) => setTimeout(r, 250));
  }
  res.status = d.status;
  if (d.status !== 'completed') {
    res.problems.push(`analysis ${d.status}: ${d.failure_reason}`);
    return res;
  }
  res.withWarnings = Number(d.with_warnings ?? 0);
  const rows = [...(await readList(server, token, id, 'within')), ...(await readList(server, token, id, 'outside')), ...(await readList(server, token, id, 'errors'))];
  rows.sort((a, b) => a.row_number - b.row_number);
  res.rows = rows.length;
  if (rows.length !== gdal.length) res.problems.push(`${rows.length} rows analysed, GDAL reads ${gdal.length} features`);
  const pairs = new Map<string, { sliver: boolean; area: number }>();
  for (const row of rows) {
    const n = row.row_number as number;
    const theirs = gdal[n - 1];
    const pgRow = ref[n - 1];
    if (/^Plot \d+$/.test(row.name ?? '')) res.plotNamed++;
    for (const e of row.errors as Array<{ code: string }>) res.errorRows[e.code] = (res.errorRows[e.code] ?? 0) + 1;
    if ((row.errors as Array<{ code: string }>).some((e) => e.code === 'name_missing')) {
      res.nameMissing++;
      res.problems.push(`row ${n}: name_missing in a GIS file`);
    }
    for (const w of row.warnings as string[]) res.warnings[w] = (res.warnings[w] ?? 0) + 1;
    if (row.is_overlapping) res.overlappingRows++;
    for (const o of row.overlaps as Array<{ row_number: number; sliver: boolean; area_sqm: number }>) {
      pairs.set(`${Math.min(n, o.row_number)}-${Math.max(n, o.row_number)}`, { sliver: o.sliver, area: o.area_sqm });
    }
    if (!theirs || !pgRow) {
      res.problems.push(`row ${n}: not in GDAL's reading of the file`);
      continue;
    }
    const invalid = (row.errors as Array<{ code: string }>).some((e) => e.code === 'invalid_polygon');
    if (invalid === pgRow.valid) {
      res.validityMismatch++;
      res.problems.push(`row ${n}: platform ${invalid ? 'invalid' : 'valid'}, PostGIS ${pgRow.valid ? 'valid' : `invalid (${pgRow.reason})`}`);
    }
    if (!row.geometry) continue;
    res.compared++;
    const pos = positionDelta(polygonsOf(row.geometry), polygonsOf(theirs.geometry, true));
    if (!pos.sameShape) res.shapeDiffers++;
    if (res.worstPosRow === null || pos.m > res.worstPosM) Object.assign(res, { worstPosM: pos.m, worstPosRow: n });
    if (!(pos.m <= MAX_POSITION_M)) res.problems.push(`row ${n}: ${pos.m.toFixed(4)} m from GDAL's position${pos.sameShape ? '' : ' (vertex structure differs)'}`);
    if (pgRow.area !== null && row.area !== null) {
      const diff = Math.abs(row.area - pgRow.area);
      const rel = pgRow.area === 0 ? diff : diff / pgRow.area;
      if (res.worstAreaRow === null || rel > res.worstAreaRel) Object.assign(res, { worstAreaRel: rel, worstAreaRow: n, worstAreaSqm: diff });
      if (!(rel <= MAX_AREA_REL)) {
        if (diff <= 2 * pgRow.noise) {
          res.areaWithinNoise++;
          res.noiseNotes.push(`row ${n}: area ${row.area} m², PostGIS ${pgRow.area} m² (${rel.toExponential(2)} relative, ${diff.toExponential(2)} m²; PostGIS's own spread ${pgRow.noise.toExponential(2)} m²)`);
        } else res.problems.push(`row ${n}: area ${row.area} m², PostGIS ${pgRow.area} m² (${rel.toExponential(2)} relative, ${diff.toExponential(2)} m²; PostGIS's own spread ${pgRow.noise.toExponential(2)} m²)`);
      }
    }
  }
  for (const p of pairs.values()) {
    if (p.sliver) {
      res.overlapSliverPairs++;
      res.largestSliverSqm = Math.max(res.largestSliverSqm, p.area);
    } else res.overlapGroupedPairs++;
  }
  if (!VERBOSE) await api('DELETE', `/api/custom-analysis/${id}/`, token);
  return res;
}

const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));
const lpad = (s: string, n: number) => (s.length >= n ? s : ' '.repeat(n - s.length) + s);
const counts = (o: Record<string, number>) =>
  Object.entries(o)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ') || '-';

function printTable(results: FileResult[]): void {
  const head = ['file', 'kB', 'CRS', 'rows', 'worst pos m', 'worst area rel', 'area > 1e-6 in noise', 'Plot n', 'name_missing', 'overlaps grouped/sliver', 'warnings', 'errors', 'ok'];
  const lines = results.map((r) => [
    r.file,
    (r.bytes / 1024).toFixed(0),
    r.crs,
    `${r.rows}`,
    r.compared ? `${r.worstPosM.toFixed(4)} (#${r.worstPosRow})` : '-',
    r.compared ? `${r.worstAreaRel.toExponential(1)} (#${r.worstAreaRow})` : '-',
    `${r.areaWithinNoise}`,
    `${r.plotNamed}`,
    `${r.nameMissing}`,
    `${r.overlapGroupedPairs}/${r.overlapSliverPairs}${r.overlapSliverPairs ? ` (≤${r.largestSliverSqm.toFixed(2)} m²)` : ''}`,
    counts(r.warnings),
    counts(r.errorRows),
    r.problems.length ? `NO (${r.problems.length})` : 'yes',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const fmt = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 || i >= 10 ? pad(c, widths[i]!) : lpad(c, widths[i]!))).join(' | ')} |`;
  process.stdout.write(`\n${fmt(head)}\n|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|\n${lines.map(fmt).join('\n')}\n`);
  const total = results.reduce((n, r) => n + r.rows, 0);
  const compared = results.reduce((n, r) => n + r.compared, 0);
  const worstPos = Math.max(0, ...results.filter((r) => r.compared).map((r) => r.worstPosM));
  const worstArea = Math.max(0, ...results.filter((r) => r.compared).map((r) => r.worstAreaRel));
  const warn: Record<string, number> = {};
  for (const r of results) for (const [k, v] of Object.entries(r.warnings)) warn[k] = (warn[k] ?? 0) + v;
  process.stdout.write(
    `\n${results.length} files, ${total} rows (${compared} with a geometry compared); worst position delta ${worstPos.toFixed(4)} m (target ≤ ${MAX_POSITION_M}), ` +
      `worst area delta ${worstArea.toExponential(2)} relative (target ≤ ${MAX_AREA_REL}; ${results.reduce((n, r) => n + r.areaWithinNoise, 0)} rows past it within PostGIS's own spread); rows named "Plot n": ${results.reduce((n, r) => n + r.plotNamed, 0)}; ` +
      `name_missing: ${results.reduce((n, r) => n + r.nameMissing, 0)}; overlap pairs grouped ${results.reduce((n, r) => n + r.overlapGroupedPairs, 0)}, ` +
      `slivers under the tolerance ${results.reduce((n, r) => n + r.overlapSliverPairs, 0)}; rows with warnings ${results.reduce((n, r) => n + r.withWarnings, 0)} (${counts(warn)})\n`,
  );
}

async function main(): Promise<void> {
  if (!DIR) throw new Error('usage: npm run check:realworld -- <dir> [--port N] [--pg URL] [--keep] [--verbose]');
  const dir = path.resolve(DIR);
  const files = fs
    .readdirSync(dir)
    .filter((f) => UPLOADABLE.test(f))
    .sort()
    .map((f) => path.join(dir, f));
  if (files.length === 0) throw new Error(`${dir}: no .zip, .geojson, .json, .kml or .kmz file`);
  const root = path.resolve(import.meta.dirname, '../../../..');
  if (!fs.existsSync(path.join(root, 'apps/api/dist/server.js'))) throw new Error('run npm run build first');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'farmland-realworld-'));
  const dbName = `realworld_${process.pid}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  const u = new URL(PG_URL);
  u.pathname = `/${dbName}`;
  const scratch = new pg.Client({ connectionString: u.toString() });
  await scratch.connect();
  await scratch.query('CREATE EXTENSION postgis');
  const versions = (await scratch.query(`SELECT postgis_full_version() AS v`)).rows[0].v as string;
  process.stdout.write(
    `== real-world files: ${files.length} from ${dir}; embedded server on port ${PORT}; PostGIS ${/POSTGIS="([^"]+)"/.exec(versions)?.[1]} (PROJ ${/PROJ="([^"]+)"/.exec(versions)?.[1]}), ${execFileSync('ogr2ogr', ['--version'], { encoding: 'utf8' }).trim()} ==\n`,
  );
  process.stdout.write(`   load average at start: ${os.loadavg().map((x) => x.toFixed(2)).join(' / ')}\n`);
  const env = builtServerEnv(PORT, work);

  let server: Server | null = null;
  const results: FileResult[] = [];
  try {
    server = await startServer(env, { timeoutMs: 900_000, onLine: (l) => VERBOSE && process.stdout.write(`  server: ${l}\n`) });
    const token = await signInEnrolling(server.base, DEMO_ACCOUNTS.adminA);
    const api = apiAt(server.base);
    const config = (await api('GET', '/api/base/tenant-configurations', token)).body.data;
    const put = await api('PUT', '/api/base/tenant-configurations', token, {
      minimum_farm_size: 0,
      recognition_threshold: config.recognition_threshold,
      overlap_min_area_sqm: config.overlap_min_area_sqm,
      overlap_min_share: config.overlap_min_share,
    });
    if (put.status !== 200) throw new Error(`tenant configuration: ${put.status} ${JSON.stringify(put.body).slice(0, 300)}`);
    process.stdout.write(`   tenant: minimum farm size 0; overlap tolerance ${config.overlap_min_area_sqm} m² and ${config.overlap_min_share * 100} % of the smaller plot\n`);
    const areas = await api('GET', '/api/operational-areas/?page_size=1', token);
    const areaId = areas.body.data.results[0].id as string;
    for (const [i, file] of files.entries()) {
      const t0 = performance.now();
      let r: FileResult;
      try {
        r = await checkFile(server, token, areaId, scratch, u.toString(), file, i);
      } catch (e) {
        r = { file: path.basename(file), bytes: fs.statSync(file).size, crs: '?', status: 'check failed', rows: 0, compared: 0, worstPosM: 0, worstPosRow: null, shapeDiffers: 0, worstAreaRel: 0, worstAreaRow: null, worstAreaSqm: 0, areaWithinNoise: 0, noiseNotes: [], validityMismatch: 0, plotNamed: 0, nameMissing: 0, errorRows: {}, overlapGroupedPairs: 0, overlapSliverPairs: 0, largestSliverSqm: 0, overlappingRows: 0, warnings: {}, withWarnings: 0, problems: [(e as Error).message.slice(0, 400)] };
      }
      results.push(r);
      process.stdout.write(
        `-- ${r.file} (${r.crs}, ${r.status}, ${((performance.now() - t0) / 1000).toFixed(1)} s): ${r.rows} rows, ${r.compared} compared; worst ${r.worstPosM.toFixed(4)} m (row ${r.worstPosRow}), area ${r.worstAreaRel.toExponential(2)} (row ${r.worstAreaRow})` +
          `${r.shapeDiffers ? `; ${r.shapeDiffers} rows with another vertex structure than GDAL's` : ''}; overlapping rows ${r.overlappingRows}\n`,
      );
      for (const p of r.problems.slice(0, VERBOSE ? 1000 : 10)) process.stdout.write(`   ! ${p}\n`);
      for (const p of r.noiseNotes.slice(0, VERBOSE ? 1000 : 5)) process.stdout.write(`   ~ ${p}\n`);
      if (r.problems.length > 10 && !VERBOSE) process.stdout.write(`   ! … ${r.problems.length - 10} more\n`);
    }
  } finally {
    if (server) await stopServer(server);
    await scratch.end();
    if (!args.includes('--keep')) {
      await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      fs.rmSync(work, { recursive: true, force: true });
    } else process.stdout.write(`   kept: data directory ${work}, database ${dbName}\n`);
    await admin.end();
  }
  printTable(results);
  process.stdout.write(`   load average at the end: ${os.loadavg().map((x) => x.toFixed(2)).join(' / ')}\n`);
  const bad = results.filter((r) => r.problems.length > 0);
  if (bad.length > 0) {
    process.stdout.write(`\nDISAGREE: ${bad.map((r) => `${r.file} (${r.problems.length})`).join(', ')}\n`);
    process.exitCode = 1;
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
  process.exit(2);
});
