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
import { polygonsOf, positionDelta, gdalSource, gdalFeatures, postgisRows } from './realworld-reference.js';
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

/** POST /custom-analysis/ as the console sends a file (multipart: name, operational_areas, file). */
function upload(base: string, token: string, file: string, areaId: string): Promise<{ status: number; body: any }> {
  const boundary = `----realworld${crypto.randomBytes(8).toString('hex')}`;
  const field = (k: string, v: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
  const body = Buffer.concat([
    Buffer.from(field('name', `realworld ${path.basename(file)}`) + field('operational_areas', areaId)),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${path.basename(file)}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    fs.readFileSync(file),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const url = new URL('/api/custom-analysis/', base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        method: 'POST',
        hostname: url.hostname,
        port: url.port,
        path: url.pathname,
        headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': body.length },
      },
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

/** A file's result before anything is compared (also what a failed check reports). */
function emptyResult(file: string, crs: string, status: string): FileResult {
  return {
    file: path.basename(file),
    bytes: fs.statSync(file).size,
    crs,
    status,
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
}

async function checkFile(server: Server, token: string, areaId: string, client: pg.Client, dbUrl: string, file: string, index: number): Promise<FileResult> {
  const name = path.basename(file);
  const res = emptyResult(file, '', '');
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
  for (const t0 = Date.now(); ;) {
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
  const rows = [
    ...(await readList(server, token, id, 'within')),
    ...(await readList(server, token, id, 'outside')),
    ...(await readList(server, token, id, 'errors')),
  ];
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
    if (!(pos.m <= MAX_POSITION_M))
      res.problems.push(`row ${n}: ${pos.m.toFixed(4)} m from GDAL's position${pos.sameShape ? '' : ' (vertex structure differs)'}`);
    if (pgRow.area !== null && row.area !== null) {
      const diff = Math.abs(row.area - pgRow.area);
      const rel = pgRow.area === 0 ? diff : diff / pgRow.area;
      if (res.worstAreaRow === null || rel > res.worstAreaRel) Object.assign(res, { worstAreaRel: rel, worstAreaRow: n, worstAreaSqm: diff });
      if (!(rel <= MAX_AREA_REL)) {
        if (diff <= 2 * pgRow.noise) {
          res.areaWithinNoise++;
          res.noiseNotes.push(
            `row ${n}: area ${row.area} m², PostGIS ${pgRow.area} m² (${rel.toExponential(2)} relative, ${diff.toExponential(2)} m²; PostGIS's own spread ${pgRow.noise.toExponential(2)} m²)`,
          );
        } else
          res.problems.push(
            `row ${n}: area ${row.area} m², PostGIS ${pgRow.area} m² (${rel.toExponential(2)} relative, ${diff.toExponential(2)} m²; PostGIS's own spread ${pgRow.noise.toExponential(2)} m²)`,
          );
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
  const head = [
    'file',
    'kB',
    'CRS',
    'rows',
    'worst pos m',
    'worst area rel',
    'area > 1e-6 in noise',
    'Plot n',
    'name_missing',
    'overlaps grouped/sliver',
    'warnings',
    'errors',
    'ok',
  ];
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
  process.stdout.write(
    `   load average at start: ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' / ')}\n`,
  );
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
    process.stdout.write(
      `   tenant: minimum farm size 0; overlap tolerance ${config.overlap_min_area_sqm} m² and ${config.overlap_min_share * 100} % of the smaller plot\n`,
    );
    const areas = await api('GET', '/api/operational-areas/?page_size=1', token);
    const areaId = areas.body.data.results[0].id as string;
    for (const [i, file] of files.entries()) {
      const t0 = performance.now();
      let r: FileResult;
      try {
        r = await checkFile(server, token, areaId, scratch, u.toString(), file, i);
      } catch (e) {
        r = { ...emptyResult(file, '?', 'check failed'), problems: [(e as Error).message.slice(0, 400)] };
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
  process.stdout.write(
    `   load average at the end: ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' / ')}\n`,
  );
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
