// `npm run bench:analysis -- --rows N [--engine pglite|postgres|both] [--seed S] [--areas 400] [--explain] [--no-geojson] [--format xlsx|geojson]
//  [--explain-classify] [--parts] [--memfs] [--verbose] [--keep] [--map] [--batch N --concurrency N --range N --write N] [--db-prefix P] [--port N]`
// (PARSE_TIMEOUT_MS=N is passed to the HTTP mode's server: the parse deadline's base, for a loaded machine; BENCH_PREWARM=1:
// run one classify batch before measuring, to see the engine's cold start apart):
// synthetic farms and operational areas from a seeded generator, the full analysis pipeline (parse in a worker thread,
// validate, classify, overlaps, store) on PGlite and on PostgreSQL, and the raw PostGIS queries (load, within,
// overlaps, area) on the same data in the same run. Prints rows/s, seconds, peak RSS, the longest event-loop block and
// the longest wait of a query sent every 50 ms meanwhile (what a request would wait behind the analysis).
// Each engine runs the csv and then the same rows as a GeoJSON FeatureCollection (issue 13; --no-geojson skips it).
// --map (issue 10): then times GET /custom-analysis/{id}/map/'s server side on the result, as the route runs it (the
// service, which builds the body as JSON text), with the body's size (raw and gzipped).
/* eslint-disable @typescript-eslint/no-explicit-any -- the HTTP mode reads the API's JSON untyped, as any client would */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import zlib from 'node:zlib';
import { analysisMap, envelope } from '@farmland/contracts';
import { sql, type SQL } from 'drizzle-orm';
import pg from 'pg';
import pino from 'pino';
import { loadConfig } from '../config.js';
import { apiAt, root as httpRoot, rssMb, signInEnrolling, startServer, stopServer } from './http.js';
import { writeXlsx } from './xlsx-file.js';
import type { Ctx, Deps } from '../context.js';
import { openDatabase, queryRows, runPgMigrations, withScope, type Database } from '../db/client.js';
import { deriveKeys } from '../lib/crypto.js';
import { createRng, type Rng } from '../lib/prng.js';
import { loadMallocTrim, startMallocTrim, trimOnce } from '../lib/malloc-trim.js';
import { localStorage } from '../lib/storage.js';
import { batchText, linesOf, runAnalysis, tuningFor } from '../modules/analyses/analyses.pipeline.js';
import { prewarmParseWorker } from '../modules/analyses/analyses.parse-client.js';
import { classifySql } from '../modules/analyses/analyses.run.queries.js';
import { analysisMapJson, createAnalysis, stageSource } from '../modules/analyses/analyses.service.js';

const args = process.argv.slice(2);
const arg = (name: string, dflt: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] && !args[i + 1]!.startsWith('--') ? args[i + 1]! : dflt;
};
const ROWS = Number(arg('rows', '15000'));
const SEED = Number(arg('seed', '42'));
const AREAS = Number(arg('areas', '400'));
const ENGINES = arg('engine', 'both') === 'both' ? (['pglite', 'postgres'] as const) : ([arg('engine', 'both')] as Array<'pglite' | 'postgres'>);
const PG_URL = process.env['BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
/** --db-prefix P: the PostgreSQL database this run creates (and drops) is P_<pid>, so that runs sharing a server stay apart. */
const DB_PREFIX = arg('db-prefix', '');
const EXPLAIN = args.includes('--explain');
/** --memfs: the embedded database in memory (PGlite's memory://) instead of a directory on disk like the server's. */
const MEMFS = args.includes('--memfs');
/** Over HTTP against the built server (API and `npm run worker` apart on PostgreSQL), with each process's RSS. */
const HTTP = args.includes('--http') || ROWS > 200_000;
/**
 * --format xlsx (over HTTP): the same rows uploaded as an xlsx workbook (texts in shared strings, as Excel writes them).
 * --format geojson: the same rows as a FeatureCollection only (over HTTP too; in process, the csv run is skipped).
 */
const FORMAT = arg('format', 'csv') === 'xlsx' ? 'xlsx' : arg('format', 'csv') === 'geojson' ? 'geojson' : 'csv';
/** Tuning overrides for experiments: --batch, --concurrency, --range, --write (defaults: tuningFor(engine)). */
const tuning = (kind: 'pglite' | 'postgres') => {
  const t = tuningFor(kind);
  const num = (name: string, d: number) => Number(arg(name, String(d)));
  return { batchRows: num('batch', t.batchRows), concurrency: num('concurrency', t.concurrency), overlapRange: num('range', t.overlapRange), writeRows: num('write', t.writeRows) };
};
const NIGERIA = '1e7050d0-9e8f-5e82-9ca3-884850256d74';

// ---------- synthetic data ----------
const CENTER = [3.7717, 7.6466] as const;
const M_LAT = 111_320;
const M_LNG = M_LAT * Math.cos((CENTER[1] * Math.PI) / 180);
const CELL = 150;
const r7 = (x: number) => Math.round(x * 1e7) / 1e7;
const toLngLat = (x: number, y: number): [number, number] => [r7(CENTER[0] + x / M_LNG), r7(CENTER[1] + y / M_LAT)];

function star(rng: Rng, cx: number, cy: number, radius: number): Array<[number, number]> {
  const n = rng.int(5, 8);
  const start = rng.next() * Math.PI * 2;
  const pts: Array<[number, number]> = [];
  for (let i = 0; i < n; i++) {
    const t = start + (i * 2 * Math.PI) / n + (rng.next() - 0.5) * 0.4;
    const r = radius * (0.8 + rng.next() * 0.2);
    pts.push(toLngLat(cx + r * Math.cos(t), cy + r * Math.sin(t)));
  }
  pts.push(pts[0]!);
  return pts;
}

/**
 * What the in-process runs share: the upload (csv bytes), the registry farms (every 20th good farm) and the areas. The
 * rows themselves are not kept: the GeoJSON upload and the raw queries regenerate them from the seed, so the harness's
 * own memory stays out of the pipeline's peak RSS (it held ~100 MB of JS arrays and strings before).
 */
type Generated = { csv: Buffer; registered: Array<Array<[number, number]>>; areas: Array<{ name: string; ring: Array<[number, number]> }>; side: number };

type FarmRow = { i: number; name: string; coords: unknown; ring: Array<[number, number]> | null };

/** The synthetic rows one at a time (the same seeded sequence whether they are kept in memory or written to a file). */
function* farmRows(rows: number, seed: number): Generator<FarmRow> {
  const rng = createRng(seed);
  const side = Math.ceil(Math.sqrt(rows));
  for (let i = 0; i < rows; i++) {
    const gx = (i % side) * CELL;
    const gy = Math.floor(i / side) * CELL;
    const roll = rng.next();
    let coords: unknown;
    let name = `Farm ${i + 1}`;
    let ring: Array<[number, number]> | null = null;
    if (roll < 0.08) ring = star(rng, gx + 70, gy, 45); // overlaps the neighbour to the east
    else if (roll < 0.09) {
      const [x, y] = toLngLat(gx, gy);
      coords = [[x, y], [x + 0.0005, y + 0.0005], [x + 0.0005, y], [x, y + 0.0005], [x, y]]; // bow-tie
    } else if (roll < 0.095) coords = [[412345.5 + i, 934567.1], [412445.5 + i, 934567.1], [412445.5 + i, 934667.1]]; // metres
    else if (roll < 0.1) {
      name = '';
      ring = star(rng, gx, gy, 45);
    } else if (roll < 0.11) ring = star(rng, gx, gy, 4); // below the minimum size
    else ring = star(rng, gx, gy, 40 + rng.next() * 20);
    if (ring) coords = ring;
    yield { i, name, coords, ring };
  }
}

const CSV_HEADER = 'farm_name,farm_coordinates,operational_area_id,farm_ref';
const csvLine = (r: FarmRow) => `${r.name},"${JSON.stringify(r.coords).replace(/"/g, '""')}",,R-${r.i + 1}`;

/** Operational areas on a 20×20 grid covering part of the farms' grid. */
function areasFor(rows: number, areaCount: number): Generated['areas'] {
  const side = Math.ceil(Math.sqrt(rows));
  const g = Math.max(1, Math.round(Math.sqrt(areaCount)));
  const span = side * CELL;
  const cell = span / g;
  const areas: Generated['areas'] = [];
  for (let ix = 0; ix < g; ix++) {
    for (let iy = 0; iy < g; iy++) {
      const x0 = ix * cell - CELL / 2;
      const y0 = iy * cell - CELL / 2;
      const w = cell * 0.85;
      const ring = [toLngLat(x0, y0), toLngLat(x0 + w, y0), toLngLat(x0 + w, y0 + w), toLngLat(x0, y0 + w), toLngLat(x0, y0)];
      areas.push({ name: `Area ${ix}-${iy}`, ring });
    }
  }
  return areas;
}

/** Farms on a 150 m grid (8 % shifted onto a neighbour, ~3 % bad rows of several kinds), areas on a 20×20 grid covering part of it. */
function generate(rows: number, areaCount: number, seed: number): Generated {
  const parts: Buffer[] = [];
  let pending: string[] = [CSV_HEADER];
  const registered: Generated['registered'] = [];
  for (const r of farmRows(rows, seed)) {
    if (r.ring && r.name && r.i % 20 === 0) registered.push(r.ring);
    pending.push(csvLine(r));
    if (pending.length >= 5000) {
      parts.push(Buffer.from(`${pending.join('\n')}\n`, 'utf8'));
      pending = [];
    }
  }
  if (pending.length > 0) parts.push(Buffer.from(`${pending.join('\n')}\n`, 'utf8'));
  return { csv: Buffer.concat(parts), registered, areas: areasFor(rows, areaCount), side: Math.ceil(Math.sqrt(rows)) };
}

/** The same rows as a GeoJSON FeatureCollection (issue 13): the ring as a Polygon, the other columns as properties. */
function geojsonOf(rows: number, seed: number): Buffer {
  const parts: Buffer[] = [Buffer.from('{"type":"FeatureCollection","features":[\n')];
  let first = true;
  for (const r of farmRows(rows, seed)) {
    const f = JSON.stringify({ type: 'Feature', properties: { farm_name: r.name, operational_area_id: '', farm_ref: `R-${r.i + 1}` }, geometry: { type: 'Polygon', coordinates: [r.coords] } });
    parts.push(Buffer.from(first ? f : `,\n${f}`));
    first = false;
  }
  parts.push(Buffer.from('\n]}\n'));
  return Buffer.concat(parts);
}

/**
 * The same csv written to a file in a stream (a million rows are ~180 MB): returns its size and the registry farms (every
 * 20th good farm), without holding the rows.
 */
async function generateToFile(rows: number, seed: number, file: string): Promise<{ bytes: number; registered: Array<Array<[number, number]>> }> {
  const out = fs.createWriteStream(file);
  const registered: Array<Array<[number, number]>> = [];
  let pending: string[] = [CSV_HEADER];
  const flush = async () => {
    if (!out.write(`${pending.join('\n')}\n`)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
    pending = [];
  };
  for (const r of farmRows(rows, seed)) {
    if (r.ring && r.name && r.i % 20 === 0) registered.push(r.ring);
    pending.push(csvLine(r));
    if (pending.length >= 5000) await flush();
  }
  await flush();
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  return { bytes: fs.statSync(file).size, registered };
}

// ---------- engines ----------
type Engine = { database: Database; admin: (text: string, params?: unknown[]) => Promise<unknown[]>; close: () => Promise<void> };

async function openEngine(kind: 'pglite' | 'postgres'): Promise<Engine> {
  if (kind === 'pglite') {
    // On disk, as the server keeps it (DATA_DIR/pglite): an in-memory data directory (--memfs) holds every table and
    // index page of the run in the database thread's JS memory, which the product never does.
    const dir = MEMFS ? null : fs.mkdtempSync(path.join(os.tmpdir(), 'farmland-bench-pglite-'));
    const database = await openDatabase({ kind: 'pglite', dataDir: dir });
    return {
      database,
      admin: (t, p) => database.adminQuery(t, p ?? []),
      close: async () => {
        await database.close();
        if (dir) fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `${DB_PREFIX || 'farmland_bench'}_${process.pid}`;
  const root = new pg.Client({ connectionString: PG_URL });
  await root.connect();
  await root.query(`DROP DATABASE IF EXISTS ${name}`);
  await root.query(`CREATE DATABASE ${name}`);
  const u = new URL(PG_URL);
  u.pathname = `/${name}`;
  const adminUrl = u.toString();
  // Migrations create farmland_app; the app connects as a login role that is only a member of it (no superuser, no BYPASSRLS).
  await runPgMigrations(adminUrl);
  const role = await root.query(`SELECT 1 FROM pg_roles WHERE rolname = 'farmland_bench_app'`);
  if (role.rowCount === 0) await root.query(`CREATE ROLE farmland_bench_app LOGIN NOSUPERUSER NOBYPASSRLS IN ROLE farmland_app`);
  const appUrl = new URL(adminUrl);
  appUrl.username = 'farmland_bench_app';
  const database = await openDatabase({ kind: 'postgres', url: appUrl.toString(), adminUrl, poolSize: 4 });
  return {
    database,
    admin: (t, p) => database.adminQuery(t, p ?? []),
    close: async () => {
      await database.close();
      await new Promise((resolve) => setTimeout(resolve, 200));
      if (args.includes('--keep')) {
        process.stdout.write(`  kept database ${name}\n`);
        await root.end();
        return;
      }
      await root.query(`DROP DATABASE IF EXISTS ${name}`).catch(() => root.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      await root.end();
    },
  };
}

async function seedLookups(e: Engine): Promise<{ cityId: string }> {
  await e.admin(`INSERT INTO countries (id, name, iso2, iso3, phone_code, currency_code, currency_name, currency_symbol, flag_emoji, country_flag)
                 VALUES ('${NIGERIA}', 'Nigeria', 'NG', 'NGA', '234', 'NGN', 'Naira', 'N', '', '') ON CONFLICT DO NOTHING`);
  const cityId = crypto.randomUUID();
  await e.admin(`INSERT INTO cities (id, country_id, name, latitude, longitude, location) VALUES ($1, '${NIGERIA}', 'Ogbomosho', 8.13, 4.24, ST_SetSRID(ST_MakePoint(4.24, 8.13), 4326))`, [cityId]);
  return { cityId };
}

async function seedTenant(e: Engine, cityId: string, data: Generated) {
  const [t] = (await e.admin(`INSERT INTO tenants (name, country_id) VALUES ('Bench tenant', '${NIGERIA}') RETURNING id`)) as Array<{ id: string }>;
  const tenantId = t!.id;
  await e.admin(`INSERT INTO tenant_configurations (tenant_id, minimum_farm_size, recognition_threshold) VALUES ($1, 100, 0.5)`, [tenantId]);
  const [u] = (await e.admin(`INSERT INTO users (tenant_id, role, email, first_name, last_name) VALUES ($1, 'tenant_admin', 'bench@example.com', 'Bench', 'Admin') RETURNING id`, [tenantId])) as Array<{ id: string }>;
  const [r] = (await e.admin(`INSERT INTO regions (tenant_id, country_id, name) VALUES ($1, '${NIGERIA}', 'Bench') RETURNING id`, [tenantId])) as Array<{ id: string }>;
  await e.admin(
    `INSERT INTO operational_areas (tenant_id, name, region_id, city_id, geom, area_sqm)
     SELECT $1, a.name, $2, $3, g, ST_Area(g::geography)
       FROM jsonb_to_recordset($4::jsonb) AS a(name text, ring jsonb), LATERAL (SELECT ST_SetSRID(ST_GeomFromGeoJSON(jsonb_build_object('type', 'Polygon', 'coordinates', jsonb_build_array(a.ring))), 4326) AS g) x`,
    [tenantId, r!.id, cityId, JSON.stringify(data.areas)],
  );
  const [f] = (await e.admin(`INSERT INTO farmers (tenant_id, first_name, last_name, folio_id) VALUES ($1, 'Reg', 'Istry', 'F-1') RETURNING id`, [tenantId])) as Array<{ id: string }>;
  // 5 % of the farms are already in the registry (same boundary), so recognition has matches to find.
  const registered = data.registered;
  for (let i = 0; i < registered.length; i += 2000) {
    await e.admin(
      `INSERT INTO farms (tenant_id, farmer_id, name, geom, area_sqm)
       SELECT $1, $2, 'Registered', g, ST_Area(g::geography) FROM jsonb_array_elements($3::jsonb) AS x(ring),
              LATERAL (SELECT ST_SetSRID(ST_GeomFromGeoJSON(jsonb_build_object('type', 'Polygon', 'coordinates', jsonb_build_array(x.ring))), 4326) AS g) y
        WHERE ST_IsValid(g)`,
      [tenantId, f!.id, JSON.stringify(registered.slice(i, i + 2000))],
    );
  }
  await e.admin('ANALYZE');
  const areaIds = ((await e.admin(`SELECT id FROM operational_areas WHERE tenant_id = $1`, [tenantId])) as Array<{ id: string }>).map((x) => x.id);
  return { tenantId, userId: u!.id, areaIds };
}

const secs = (ms: number) => (ms / 1000).toFixed(2);

async function rawQueries(e: Engine, tenantId: string): Promise<Record<string, number>> {
  const wkts: Array<{ n: number; wkt: string }> = [];
  for (const r of farmRows(ROWS, SEED)) if (r.ring && r.name) wkts.push({ n: r.i + 1, wkt: `POLYGON((${r.ring.map((p) => `${p[0]} ${p[1]}`).join(',')}))` });
  const t: Record<string, number> = {};
  let t0 = performance.now();
  await e.admin('CREATE TABLE bench_raw (n int, geom geometry(Polygon, 4326))');
  for (let i = 0; i < wkts.length; i += 20000) {
    await e.admin(`INSERT INTO bench_raw SELECT s.n, g FROM jsonb_to_recordset($1::jsonb) AS s(n int, wkt text), LATERAL (SELECT ST_GeomFromText(s.wkt, 4326) AS g) x WHERE ST_IsValid(g)`, [
      JSON.stringify(wkts.slice(i, i + 20000)),
    ]);
  }
  await e.admin('CREATE INDEX bench_raw_gix ON bench_raw USING gist (geom)');
  await e.admin('ANALYZE bench_raw');
  t['load'] = performance.now() - t0;
  t0 = performance.now();
  await e.admin(
    `SELECT count(*) FROM bench_raw r WHERE EXISTS (SELECT 1 FROM operational_areas a WHERE a.tenant_id = $1 AND a.geom && r.geom AND ST_Covers(a.geom, r.geom))`,
    [tenantId],
  );
  t['within'] = performance.now() - t0;
  t0 = performance.now();
  await e.admin(`SELECT count(*) FROM bench_raw a JOIN bench_raw b ON a.geom && b.geom AND a.n < b.n WHERE ST_Relate(a.geom, b.geom, '2********')`);
  t['overlaps'] = performance.now() - t0;
  t0 = performance.now();
  await e.admin('SELECT sum(ST_Area(geom::geography)) FROM bench_raw');
  t['area'] = performance.now() - t0;
  t['total'] = t['load']! + t['within']! + t['overlaps']! + t['area']!;
  await e.admin('DROP TABLE bench_raw');
  return t;
}

/** Plans of the pipeline's probes as the app role (row-level security on), on both engines. */
async function explain(deps: Deps, tenantId: string, analysisId: string, areaIds: string[]): Promise<void> {
  const show = async (title: string, text: SQL) => {
    const rows = await withScope(deps.db, { kind: 'tenant', tenantId }, (tx) => queryRows<{ 'QUERY PLAN': string }>(tx, sql`EXPLAIN (ANALYZE, COSTS OFF) ${text}`));
    process.stdout.write(`  EXPLAIN ANALYZE ${title}:\n${rows.map((r) => `    ${r['QUERY PLAN']}`).join('\n')}\n`);
  };
  await show('overlap pairs of a row range (1..1000)', sql`SELECT a.row_number AS a, b.row_number AS b
      FROM custom_analysis_rows a
      JOIN custom_analysis_rows b ON b.geom && a.geom AND b.geom IS NOT NULL AND (b.analysis_id = a.analysis_id) IS TRUE AND b.row_number - a.row_number > 0
     WHERE a.tenant_id = ${tenantId} AND a.analysis_id = ${analysisId} AND a.row_number >= 1 AND a.row_number < 1001 AND a.geom IS NOT NULL
       AND ST_Relate(a.geom, b.geom, '2********')`);
  await withScope(deps.db, { kind: 'tenant', tenantId }, async (tx) => {
    const groups = await queryRows<{ n: number; g: number }>(tx, sql`SELECT row_number AS n, overlapping_id AS g FROM custom_analysis_rows WHERE analysis_id = ${analysisId} AND is_overlapping ORDER BY row_number LIMIT 1000`);
    const lo = groups[0]?.n ?? 1;
    const dense = new Array<number>((groups.at(-1)?.n ?? lo) - lo + 1).fill(0);
    for (const x of groups) dense[x.n - lo] = x.g;
    const rows = await queryRows<{ 'QUERY PLAN': string }>(tx, sql`EXPLAIN (ANALYZE, COSTS OFF)
      UPDATE custom_analysis_rows r SET is_overlapping = true, overlapping_id = (${`{${dense.join(',')}}`}::int[])[r.row_number - ${lo - 1}::int]
       WHERE r.tenant_id = ${tenantId} AND r.analysis_id = ${analysisId} AND r.row_number BETWEEN ${lo}::int AND ${groups.at(-1)?.n ?? lo}::int
         AND r.row_number = ANY(${`{${groups.map((x) => x.n).join(',')}}`}::int[])`);
    process.stdout.write(`  EXPLAIN ANALYZE overlap groups update (first 1,000 rows, rolled back):\n${rows.map((r) => `    ${r['QUERY PLAN']}`).join('\n')}\n`);
    tx.rollback();
  }).catch((err: unknown) => {
    if (!(err instanceof Error) || !/rollback/i.test(err.message)) throw err;
  });
  void areaIds;
}

/** EXPLAIN ANALYZE of one classify statement (rolled back), to see where a batch spends its time. */
async function explainClassify(deps: Deps, tenantId: string, areaIds: string[], file: Buffer): Promise<void> {
  const at = path.join(deps.config.dataDir, 'explain.csv');
  fs.writeFileSync(at, file);
  const key = `${tenantId}/analysis_staged/explain.ndjson`;
  await stageSource(deps, { kind: 'file', path: at, size: file.length, sha256: '', filename: 'bench.csv' }, areaIds, key);
  const batch = batchText(linesOf((await deps.storage.get(key))!).slice(0, 4));
  await deps.storage.remove(key);
  const id = crypto.randomUUID();
  await withScope(deps.db, { kind: 'tenant', tenantId }, async (tx) => {
    await tx.execute(sql`INSERT INTO custom_analyses (id, tenant_id, name, minimum_farm_size) VALUES (${id}, ${tenantId}, 'explain', 100)`);
    const params = { analysisId: id, allAreas: true, minimumFarmSize: 100, requireRecognition: true, threshold: 0.5 };
    const rows = await queryRows<{ 'QUERY PLAN': string }>(tx, sql`EXPLAIN (ANALYZE, COSTS OFF) ${classifySql(tenantId, params, batch)}`);
    process.stdout.write(`  EXPLAIN ANALYZE classify (1000 rows):\n${rows.map((r) => `    ${r['QUERY PLAN']}`).join('\n')}\n`);
    tx.rollback();
  }).catch((err: unknown) => {
    if (!(err instanceof Error) || !/rollback/i.test(err.message)) throw err;
  });
}

/**
 * --parts: where a classify statement's time goes, without EXPLAIN's per-node clock reads (costly in WebAssembly). The
 * same staged batches run as cumulative SELECTs (the rows parsed, + ST_IsValid, + the spheroid area, + the covering
 * area probe, + the registry probe), then as the classify statement itself (rolled back); each step's time is the
 * difference from the one before.
 */
async function classifyParts(deps: Deps, tenantId: string, areaIds: string[], file: Buffer): Promise<void> {
  const at = path.join(deps.config.dataDir, 'parts.csv');
  fs.writeFileSync(at, file);
  const key = `${tenantId}/analysis_staged/parts.ndjson`;
  await stageSource(deps, { kind: 'file', path: at, size: file.length, sha256: '', filename: 'bench.csv' }, areaIds, key);
  const lines = linesOf((await deps.storage.get(key))!).slice(0, 100);
  await deps.storage.remove(key);
  const batches: string[] = [];
  for (let i = 0; i < lines.length; i += 5) batches.push(batchText(lines.slice(i, i + 5)));
  const rows = Math.min(lines.length, 100) * 100;
  // Each step as the classify statement has it: materialized, so each value is computed once per row.
  const g = (b: string) => sql`WITH g AS MATERIALIZED (SELECT s.n, s.oa, CASE WHEN s.w THEN ST_WrapX(s.wkb::geometry, 180, -360) ELSE coalesce(s.wkb::geometry, ST_GeomFromText(s.wkt, 4326)) END AS geom
      FROM jsonb_to_recordset(${b}::jsonb) AS s(n int, name text, wkb text, wkt text, oa uuid, rd jsonb, errs jsonb, d int, w boolean, pt boolean))`;
  const v = (b: string) => sql`${g(b)}, v AS MATERIALIZED (SELECT g.*, ST_IsValid(g.geom) AS ok FROM g)`;
  const m = (b: string) => sql`${v(b)}, m AS MATERIALIZED (SELECT v.*, CASE WHEN v.ok THEN ST_Area(v.geom::geography) END AS area FROM v)`;
  const c = (b: string) => sql`${m(b)}, c AS MATERIALIZED (SELECT m.*, w.id AS within_id FROM m LEFT JOIN LATERAL (
          SELECT a.id FROM operational_areas a WHERE m.ok AND a.geom && m.geom AND a.tenant_id = ${tenantId} AND ST_Covers(a.geom, m.geom)
           ORDER BY (a.id = m.oa) DESC, a.name, a.id LIMIT 1) w ON true)`;
  const steps: Array<[string, (b: string) => SQL]> = [
    ['jsonb_to_recordset + EWKB', (b) => sql`${g(b)} SELECT count(*) FROM g WHERE g.geom IS NOT NULL`],
    ['+ ST_IsValid', (b) => sql`${v(b)} SELECT count(*) FROM v WHERE v.ok`],
    ['+ geography ST_Area', (b) => sql`${m(b)} SELECT sum(m.area) FROM m`],
    ['+ covering area (ST_Covers)', (b) => sql`${c(b)} SELECT count(c.within_id) FROM c`],
    [
      '+ covered fraction of the outside rows',
      (b) => sql`${c(b)} SELECT count(c.within_id), sum(CASE WHEN c.ok AND c.within_id IS NULL THEN
          least(1.0, coalesce((SELECT CASE WHEN count(*) = 1 THEN ST_Area((array_agg(ST_Intersection(a.geom, c.geom)))[1])
                                           ELSE ST_Area(ST_Union(array_agg(ST_Intersection(a.geom, c.geom)))) END
                                 FROM operational_areas a WHERE a.geom && c.geom AND a.tenant_id = ${tenantId} AND ST_Intersects(a.geom, c.geom)), 0) / ST_Area(c.geom)) END) FROM c`,
    ],
    [
      '+ registry probe',
      (b) => sql`${c(b)} SELECT count(c.within_id), sum(CASE WHEN c.ok AND c.within_id IS NULL THEN
          least(1.0, coalesce((SELECT CASE WHEN count(*) = 1 THEN ST_Area((array_agg(ST_Intersection(a.geom, c.geom)))[1])
                                           ELSE ST_Area(ST_Union(array_agg(ST_Intersection(a.geom, c.geom)))) END
                                 FROM operational_areas a WHERE a.geom && c.geom AND a.tenant_id = ${tenantId} AND ST_Intersects(a.geom, c.geom)), 0) / ST_Area(c.geom)) END),
          count(*) FILTER (WHERE c.ok AND NOT EXISTS (SELECT 1 FROM farms f
            WHERE f.geom && c.geom AND f.tenant_id = ${tenantId} AND ST_Intersects(f.geom, c.geom)
              AND (SELECT i / nullif(ST_Area(f.geom) + ST_Area(c.geom) - i, 0) FROM (SELECT ST_Area(ST_Intersection(f.geom, c.geom)) AS i) x) >= 0.5))
          FROM c`,
    ],
  ];
  const id = crypto.randomUUID();
  await withScope(deps.db, { kind: 'tenant', tenantId }, (tx) => tx.execute(sql`INSERT INTO custom_analyses (id, tenant_id, name, minimum_farm_size) VALUES (${id}, ${tenantId}, 'parts', 100)`));
  const params = { analysisId: id, allAreas: true, minimumFarmSize: 100, requireRecognition: true, threshold: 0.5 };
  const time = async (fn: (b: string) => SQL, rollback = false) => {
    let ms = 0;
    for (const b of batches) {
      const t0 = performance.now();
      await withScope(deps.db, { kind: 'tenant', tenantId }, async (tx) => {
        await tx.execute(fn(b));
        if (rollback) tx.rollback();
      }).catch((err: unknown) => {
        if (!(err instanceof Error) || !/rollback/i.test(err.message)) throw err;
      });
      ms += performance.now() - t0;
    }
    return ms;
  };
  for (const [, fn] of steps) await time(fn); // warm-up
  let prev = 0;
  const out: string[] = [];
  for (const [name, fn] of steps) {
    const ms = await time(fn);
    out.push(`${name} ${((ms - prev) / rows * 1000).toFixed(1)} µs`);
    prev = ms;
  }
  await time((b) => classifySql(tenantId, params, b), true);
  const full = await time((b) => classifySql(tenantId, params, b), true);
  out.push(`classify statement (with the INSERT, rolled back) ${(full / rows * 1000).toFixed(1)} µs in all, ${((full - prev) / rows * 1000).toFixed(1)} µs over the SELECTs`);
  await withScope(deps.db, { kind: 'tenant', tenantId }, (tx) => tx.execute(sql`DELETE FROM custom_analyses WHERE id = ${id}`));
  process.stdout.write(`  classify per row (${rows} rows in ${batches.length} statements): ${out.join(', ')}\n`);
}

/**
 * The resident part of the WASM heap (Linux): the anonymous mapping of exactly its size in /proc/self/smaps (V8 maps
 * the accessible pages apart from the guard region). Its Rss is what the heap costs, whatever its size says. Null
 * where smaps cannot be read or no mapping matches.
 */
function wasmResidentMb(bytes: number): number | null {
  let text: string;
  try {
    text = fs.readFileSync('/proc/self/smaps', 'utf8');
  } catch {
    return null;
  }
  let kb: number | null = null;
  let match = false;
  for (const line of text.split('\n')) {
    if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) {
      const [a, b] = line.split(' ')[0]!.split('-').map((x) => Number.parseInt(x, 16));
      match = b! - a! === bytes;
    } else if (match && line.startsWith('Rss:')) kb = (kb ?? 0) + Number(line.split(/\s+/)[1]);
  }
  return kb === null ? null : Math.round(kb / 1024);
}

async function benchEngine(kind: 'pglite' | 'postgres', data: Generated, file: Buffer, filename = 'bench.csv') {
  process.stdout.write(`\n== ${kind}: ${ROWS} rows, ${data.areas.length} areas (${filename}, ${(file.length / 1048576).toFixed(1)} MB) ==\n`);
  const e = await openEngine(kind);
  // On a failure, the probes stop before the engine closes, so the real error is the one printed.
  let stopProbes: (() => Promise<void>) | null = null;
  try {
    const { cityId } = await seedLookups(e);
    const s = await seedTenant(e, cityId, data);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'farmland-bench-'));
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, APP_SECRET: 'bench-secret-that-is-long-enough-0123456789', LOG_LEVEL: 'silent' });
    const deps: Deps = { config, database: e.database, db: e.database.db, keys: deriveKeys(config.secret), storage: localStorage(path.join(dataDir, 'files')), log: pino({ level: 'silent' }) };
    const ctx: Ctx = {
      actor: { userId: s.userId, sessionId: crypto.randomUUID(), role: 'tenant_admin', tenantId: s.tenantId, name: 'Bench Admin', email: 'bench@example.com' },
      platform: 'api',
      ip: '127.0.0.1',
      country: null,
      requestId: 'bench',
    };

    if (process.env['BENCH_PREWARM']) {
      const tw = performance.now();
      await explainClassify(deps, s.tenantId, s.areaIds, file);
      process.stdout.write(`  prewarm (EXPLAIN ANALYZE of one classify batch) ${(performance.now() - tw).toFixed(0)} ms\n`);
    }
    // A running API keeps one parse worker started ahead (analyses.routes.ts, onReady); so does the benchmark.
    prewarmParseWorker();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    // The server returns free C-heap pages to the OS at start and on a timer (lib/malloc-trim.ts), so an upload meets
    // an idle server trimmed; here the set-up (engine start, seeding) is trimmed once before measuring, the same way.
    const trim = await loadMallocTrim();
    if (trim) await trimOnce(trim);
    const loop = monitorEventLoopDelay({ resolution: 5 });
    // Which phase the longest blocks fall in: a 10 ms timer's lateness, attributed to the phase running at the time.
    const blockByPhase: Record<string, number> = {};
    const lag = { max: 0, timer: null as NodeJS.Timeout | null, last: performance.now() };
    const tick = () => {
      const now = performance.now();
      lag.max = Math.max(lag.max, now - lag.last - 10);
      lag.last = now;
      lag.timer = setTimeout(tick, 10);
    };
    lag.timer = setTimeout(tick, 10);
    // A request's view: a one-row query every 50 ms while the analysis runs; its longest wait is how long a request's
    // statement can queue behind the analysis's (PGlite has one connection; PostgreSQL a pool).
    const probe = { max: 0, stop: false };
    const probeLoop = (async () => {
      while (!probe.stop) {
        const p0 = performance.now();
        await withScope(deps.db, { kind: 'tenant', tenantId: s.tenantId }, (tx) => tx.execute(sql`SELECT count(*) FROM custom_analyses WHERE tenant_id = ${s.tenantId}`));
        probe.max = Math.max(probe.max, performance.now() - p0);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    let peakRss = process.memoryUsage().rss;
    // Memory per phase: the peak RSS while it ran, and at its end the main thread's JS heap and buffers, and (PGlite)
    // the database thread's heap and its WebAssembly heap (which never shrinks).
    let phaseRss = peakRss;
    const memByPhase: string[] = [];
    const mb = (n: number) => Math.round(n / 1048576);
    const memAt = async (p: string) => {
      const m = process.memoryUsage();
      const w = await e.database.memory?.();
      const wasm = w ? wasmResidentMb(w.wasmMemory) : null;
      memByPhase.push(
        `${p}: peak RSS ${mb(phaseRss)} MB (main heap ${mb(m.heapUsed)}/${mb(m.heapTotal)} MB, buffers ${mb(m.arrayBuffers)} MB` +
          (w ? `; db thread heap ${mb(w.heapUsed)}/${mb(w.heapTotal)} MB, buffers ${mb(w.arrayBuffers)} MB, WASM heap ${mb(w.wasmMemory)} MB` : '') +
          (wasm !== null ? ` of which resident ${wasm} MB` : '') +
          ')',
      );
      phaseRss = process.memoryUsage().rss;
    };
    await memAt('before');
    const rssTimer = setInterval(() => {
      const r = process.memoryUsage().rss;
      peakRss = Math.max(peakRss, r);
      phaseRss = Math.max(phaseRss, r);
    }, 50);
    stopProbes = async () => {
      probe.stop = true;
      await probeLoop.catch(() => undefined);
      if (lag.timer) clearTimeout(lag.timer);
      clearInterval(rssTimer);
    };
    const phases: Record<string, number> = {};
    let analysisId = '';
    loop.enable();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const created = await createAnalysis(deps, ctx, async (d) => void (analysisId = d.analysisId), {
      name: 'Bench',
      operationalAreas: s.areaIds,
      source: { kind: 'file', data: file, filename },
    });
    phases['parse+stage (worker thread) and create'] = performance.now() - t0;
    blockByPhase['parse+stage (worker thread) and create'] = lag.max;
    lag.max = 0;
    await memAt('parse+stage');
    if (args.includes('--verbose')) process.stdout.write(`    parse+create: ${secs(phases['parse+stage (worker thread) and create']!)} s\n`);
    let stmtMax = 0;
    let stmtCount = 0;
    let stmtSum = 0;
    let stmtN = 0;
    const stmtMaxByPhase: Record<string, number> = {};
    const stmtSumByPhase: Record<string, string> = {};
    // This process's CPU per phase: on PostgreSQL the API side only (the server's processes are apart), on PGlite the
    // database thread too.
    const cpuByPhase: Record<string, number> = {};
    let cpuMark = process.cpuUsage();
    const memWaits: Array<Promise<void>> = [];
    const result = await runAnalysis(deps, s.tenantId, analysisId || created.id, tuning(kind), {
      onPhase: (p, ms) => {
        phases[p] = ms;
        memWaits.push(memAt(p));
        const c = process.cpuUsage(cpuMark);
        cpuByPhase[p] = (c.user + c.system) / 1000;
        cpuMark = process.cpuUsage();
        stmtMaxByPhase[p] = stmtMax;
        stmtSumByPhase[p] = `${stmtN} in ${secs(stmtSum)} s`;
        stmtMax = 0;
        stmtSum = 0;
        stmtN = 0;
        blockByPhase[p] = lag.max;
        lag.max = 0;
        if (args.includes('--verbose')) process.stdout.write(`    ${p}: ${secs(ms)} s\n`);
      },
      onStatement: (ms) => {
        stmtMax = Math.max(stmtMax, ms);
        stmtSum += ms;
        stmtN++;
        stmtCount++;
        if (args.includes('--verbose') && ms > 60) process.stdout.write(`      slow statement #${stmtCount}: ${ms.toFixed(0)} ms\n`);
      },
    });
    const total = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    await Promise.all(memWaits);
    probe.stop = true;
    await probeLoop;
    loop.disable();
    if (lag.timer) clearTimeout(lag.timer);
    clearInterval(rssTimer);
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    const [sum] = await withScope(deps.db, { kind: 'tenant', tenantId: s.tenantId }, (tx) =>
      queryRows<Record<string, number>>(tx, sql`SELECT within_count, outside_count, error_count, overlapping_count, unrecognized_count, round(total_area) AS total_area FROM custom_analyses WHERE id = ${created.id}`),
    );
    process.stdout.write(`  pipeline: ${result}, ${secs(total)} s, ${Math.round(ROWS / (total / 1000))} rows/s, peak RSS ${Math.round(peakRss / 1048576)} MB, longest event-loop block ${(loop.max / 1e6).toFixed(1)} ms, longest wait of a concurrent query ${probe.max.toFixed(0)} ms\n`);
    // CPU of this process (main thread, parse worker and, on PGlite, the database): steadier than wall time on a shared machine.
    process.stdout.write(`  process CPU: ${secs((cpu.user + cpu.system) / 1000)} s\n`);
    process.stdout.write(`  phases: ${Object.entries(phases).map(([k, v]) => `${k} ${secs(v)} s`).join(', ')}\n`);
    process.stdout.write(`  longest block per phase (timer lateness): ${Object.entries(blockByPhase).map(([k, v]) => `${k} ${v.toFixed(0)} ms`).join(', ')}\n`);
    process.stdout.write(`  longest statement per phase: ${Object.entries(stmtMaxByPhase).map(([k, v]) => `${k} ${v.toFixed(0)} ms`).join(', ')}\n`);
    process.stdout.write(`  memory per phase:\n${memByPhase.map((x) => `    ${x}`).join('\n')}\n`);
    process.stdout.write(`  process CPU per phase: ${Object.entries(cpuByPhase).map(([k, v]) => `${k} ${secs(v)} s`).join(', ')}\n`);
    // Statements' wall time summed (with more than one in flight on PostgreSQL, the sum exceeds the phase).
    process.stdout.write(`  statements per phase: ${Object.entries(stmtSumByPhase).map(([k, v]) => `${k} ${v}`).join(', ')}\n`);
    process.stdout.write(`  result: ${JSON.stringify(sum)}\n`);

    const raw = await rawQueries(e, s.tenantId);
    process.stdout.write(`  raw PostGIS: load ${secs(raw['load']!)} s, within ${secs(raw['within']!)} s, overlaps ${secs(raw['overlaps']!)} s, area ${secs(raw['area']!)} s = ${secs(raw['total']!)} s\n`);
    process.stdout.write(`  pipeline / raw = ${(total / raw['total']!).toFixed(2)}x\n`);
    if (EXPLAIN) await explain(deps, s.tenantId, created.id, s.areaIds);
    if (args.includes('--map')) await benchMap(deps, ctx, created.id);
    if (args.includes('--explain-classify')) await explainClassify(deps, s.tenantId, s.areaIds, file);
    if (args.includes('--parts')) await classifyParts(deps, s.tenantId, s.areaIds, file);
    fs.rmSync(dataDir, { recursive: true, force: true });
    return { kind: filename === 'bench.csv' ? kind : `${kind} ${path.extname(filename).slice(1)}`, seconds: total / 1000, raw: raw['total']! / 1000, loopMs: loop.max / 1e6, probeMs: probe.max, rssMb: peakRss / 1048576 };
  } finally {
    await stopProbes?.();
    await e.close();
  }
}

/**
 * GET /custom-analysis/{id}/map/ without the network: the route's work is the service, which returns the body as JSON
 * text (built in SQL). The body is then parsed and checked against the contract once, outside the timing.
 */
async function benchMap(deps: Deps, ctx: Ctx, id: string): Promise<void> {
  const runs = Number(arg('map-runs', '10'));
  const times: number[] = [];
  let body = '';
  for (let i = 0; i <= runs; i++) {
    const t0 = performance.now();
    body = `{"data":${await analysisMapJson(deps, ctx, id)}}`;
    if (i > 0) times.push(performance.now() - t0); // the first run warms up
  }
  const checked = envelope(analysisMap).safeParse(JSON.parse(body));
  if (!checked.success) throw new Error(`map answer does not match its schema: ${checked.error.message.slice(0, 300)}`);
  const features = checked.data.data.features.length;
  const q = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? 0;
  const bytes = Buffer.byteLength(body);
  process.stdout.write(`  map (GET /custom-analysis/{id}/map/ server side, ${features} features, ${runs} runs): p50 ${q(times, 50).toFixed(0)} ms, p95 ${q(times, 95).toFixed(0)} ms\n`);
  process.stdout.write(`  map body: ${(bytes / 1048576).toFixed(2)} MB (${Math.round(bytes / Math.max(1, features))} bytes a feature), gzipped ${(zlib.gzipSync(body).length / 1048576).toFixed(2)} MB\n`);
}

// ---------- over HTTP (--http; always from 200,001 rows): the built server, as deployed ----------

const HTTP_PORT = Number(arg('port', '3431'));

/** A process's VmRSS and VmHWM (peak) from /proc, sampled every 100 ms. */
function rssWatch(pids: Record<string, number | undefined>) {
  const peak: Record<string, number> = Object.fromEntries(Object.keys(pids).map((k) => [k, 0]));
  const t = setInterval(() => {
    for (const [k, pid] of Object.entries(pids)) peak[k] = Math.max(peak[k]!, rssMb(pid));
  }, 100);
  return () => {
    clearInterval(t);
    return Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, { peak: Math.max(peak[k]!, rssMb(pid)), hwm: rssMb(pid, 'VmHWM') }]));
  };
}

/** POST /custom-analysis/ with the file streamed from disk (multipart built around it; nothing held whole here either). */
function uploadFile(base: string, token: string, fields: Array<[string, string]>, file: string, filename: string): Promise<{ status: number; body: any }> {
  const boundary = `----bench${crypto.randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    fields.map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`).join('') +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: text/csv\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const size = fs.statSync(file).size;
  const url = new URL('/api/custom-analysis/', base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { method: 'POST', hostname: url.hostname, port: url.port, path: url.pathname, headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + size + tail.length } },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => {
          const text = Buffer.concat(parts).toString();
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // not JSON
          }
          resolve({ status: res.statusCode ?? 0, body });
        });
      },
    );
    req.on('error', reject);
    req.write(head);
    const rs = fs.createReadStream(file, { highWaterMark: 1024 * 1024 });
    rs.on('error', reject);
    rs.on('end', () => req.end(tail));
    rs.pipe(req, { end: false });
  });
}

/** The bench's 400 areas and registry farms in the demo tenant of a server's database (HTTP mode); answers the tenant's area ids. */
async function seedDemoTenant(admin: (text: string, params?: unknown[]) => Promise<any[]>, registered: Array<Array<[number, number]>>): Promise<string[]> {
  const [{ tenant_id: tenantId }] = await admin(`SELECT tenant_id FROM users WHERE email = 'admin@oyo-agro.example'`);
  const [{ id: regionId }] = await admin(`INSERT INTO regions (tenant_id, country_id, name) VALUES ($1, (SELECT country_id FROM tenants WHERE id = $1), 'Bench') RETURNING id`, [tenantId]);
  const [{ id: cityId }] = await admin(`SELECT id FROM cities LIMIT 1`);
  await admin(
    `INSERT INTO operational_areas (tenant_id, name, region_id, city_id, geom, area_sqm)
     SELECT $1, a.name, $2, $3, g, ST_Area(g::geography)
       FROM jsonb_to_recordset($4::jsonb) AS a(name text, ring jsonb), LATERAL (SELECT ST_SetSRID(ST_GeomFromGeoJSON(jsonb_build_object('type', 'Polygon', 'coordinates', jsonb_build_array(a.ring))), 4326) AS g) x`,
    [tenantId, regionId, cityId, JSON.stringify(areasFor(ROWS, AREAS))],
  );
  const [{ id: farmerId }] = await admin(`INSERT INTO farmers (tenant_id, first_name, last_name, folio_id) VALUES ($1, 'Reg', 'Istry', 'HS-BENCH-1') RETURNING id`, [tenantId]);
  for (let i = 0; i < registered.length; i += 5000) {
    await admin(
      `INSERT INTO farms (tenant_id, farmer_id, name, geom, area_sqm)
       SELECT $1, $2, 'Registered', g, ST_Area(g::geography) FROM jsonb_array_elements($3::jsonb) AS x(ring),
              LATERAL (SELECT ST_SetSRID(ST_GeomFromGeoJSON(jsonb_build_object('type', 'Polygon', 'coordinates', jsonb_build_array(x.ring))), 4326) AS g) y
        WHERE ST_IsValid(g)`,
      [tenantId, farmerId, JSON.stringify(registered.slice(i, i + 5000))],
    );
  }
  await admin('ANALYZE');
  return (await admin(`SELECT id FROM operational_areas WHERE tenant_id = $1`, [tenantId])).map((r: { id: string }) => r.id);
}

async function benchHttp(kind: 'pglite' | 'postgres'): Promise<{ kind: string; seconds: number; rssMb: number; workerMb: number | null; probeMs: number }> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-bench-http-'));
  const csvFile = path.join(work, 'bench.csv');
  const g0 = performance.now();
  const generated = await generateToFile(ROWS, SEED, csvFile);
  const { registered } = generated;
  let bytes = generated.bytes;
  const upload = { file: csvFile, name: 'bench.csv' };
  if (FORMAT === 'xlsx') {
    upload.file = path.join(work, 'bench.xlsx');
    upload.name = 'bench.xlsx';
    bytes = await writeXlsx(upload.file, function* () {
      yield CSV_HEADER.split(',');
      for (const r of farmRows(ROWS, SEED)) yield [r.name, `${JSON.stringify(r.coords)}`, '', `R-${r.i + 1}`];
    });
    fs.rmSync(csvFile);
  } else if (FORMAT === 'geojson') {
    upload.file = path.join(work, 'bench.geojson');
    upload.name = 'bench.geojson';
    const out = fs.createWriteStream(upload.file);
    const write = (text: string) => (out.write(text) ? undefined : new Promise<void>((resolve) => out.once('drain', () => resolve())));
    await write('{"type":"FeatureCollection","features":[\n');
    let i = 0;
    for (const r of farmRows(ROWS, SEED)) {
      await write(`${i++ > 0 ? ',\n' : ''}${JSON.stringify({ type: 'Feature', properties: { farm_name: r.name, operational_area_id: '', farm_ref: `R-${r.i + 1}` }, geometry: { type: 'Polygon', coordinates: [r.coords] } })}`);
    }
    await new Promise<void>((resolve) => out.end('\n]}\n', () => resolve()));
    bytes = fs.statSync(upload.file).size;
    fs.rmSync(csvFile);
  }
  process.stdout.write(`\n== ${kind} over HTTP: ${ROWS} rows, ${AREAS} areas (${upload.name}, ${(bytes / 1048576).toFixed(1)} MB, written in ${secs(performance.now() - g0)} s), built server on port ${HTTP_PORT} ==\n`);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env['PATH'],
    NODE_ENV: 'production',
    PORT: String(HTTP_PORT),
    HOST: '127.0.0.1',
    DATA_DIR: path.join(work, 'data'),
    APP_SECRET: crypto.randomBytes(32).toString('hex'),
    LOG_LEVEL: 'info',
    UPLOAD_LIMIT_BYTES: String(Math.max(3_145_728, bytes + 1024 * 1024)),
    ANALYSIS_MAX_ROWS: String(Math.max(ROWS, 100_000)),
    PAYLOAD_ENCRYPTION: 'optional',
    MEMORY_TRIM_INTERVAL_S: '30',
    // A loaded machine can stage a million rows slower than the parse deadline allows (196 s for 180 MB); raise its base.
    ...(process.env['PARSE_TIMEOUT_MS'] ? { PARSE_TIMEOUT_MS: process.env['PARSE_TIMEOUT_MS'] } : {}),
  };
  const dbName = `${DB_PREFIX || 'hs_bench'}_${process.pid}`;
  const root = kind === 'postgres' ? new pg.Client({ connectionString: PG_URL }) : null;
  const children: ChildProcess[] = [];
  const lines: Record<string, string[]> = { api: [], worker: [] };
  let closeAdmin = async (): Promise<void> => undefined;
  let embeddedAreaIds: string[] = [];
  try {
    let admin: (text: string, params?: unknown[]) => Promise<any[]>;
    if (root) {
      await root.connect();
      await root.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      const u = new URL(PG_URL);
      u.pathname = `/${dbName}`;
      const adminUrl = u.toString();
      const setup = spawn(process.execPath, [path.join(httpRoot, 'apps/api/dist/bin/db-setup.js'), '--admin-url', adminUrl, '--app-user', 'hs_bench_app'], { cwd: httpRoot, stdio: 'ignore', env });
      if ((await new Promise((r) => setup.on('exit', r))) !== 0) throw new Error('db-setup failed');
      const app = new URL(adminUrl);
      app.username = 'hs_bench_app';
      Object.assign(env, { DATABASE_URL: app.toString(), DATABASE_ADMIN_URL: adminUrl, SEED_DEMO: 'true', ANALYSIS_WORKERS: 'off' });
      const c = new pg.Client({ connectionString: adminUrl });
      c.on('error', () => undefined);
      await c.connect();
      admin = async (t, p) => (await c.query(t, p ?? [])).rows;
      closeAdmin = () => c.end();
    }
    const t0 = performance.now();
    let server = await startServer(env, { timeoutMs: 900_000, onLine: (l) => lines['api']!.push(l) });
    children.push(server.child);
    process.stdout.write(`  API ready in ${secs(performance.now() - t0)} s (first start, demo data seeded)\n`);
    if (!root) {
      // Embedded: measured after a restart, as a running installation is (the first start's seeding leaves its peak).
      await stopServer(server);
      children.pop();
      // The same areas and registry farms as the other runs, written into the server's data directory while it is
      // stopped (PGlite is one process's); the restart then serves them.
      const seeded = await openDatabase({ kind: 'pglite', dataDir: path.join(env['DATA_DIR']!, 'pglite') });
      try {
        embeddedAreaIds = await seedDemoTenant((t, p) => seeded.adminQuery(t, p ?? []), registered);
      } finally {
        await seeded.close();
      }
      const t1 = performance.now();
      server = await startServer(env, { timeoutMs: 900_000, onLine: (l) => lines['api']!.push(l) });
      children.push(server.child);
      await new Promise((r) => setTimeout(r, 10_000));
      process.stdout.write(`  restarted in ${secs(performance.now() - t1)} s; idle RSS ${rssMb(server.child.pid).toFixed(0)} MB 10 s later\n`);
    }
    if (!root) {
      // Embedded: the data directory is the server's own, and one process's at a time; the areas and registry farms
      // go in between the first start and the restart (below).
      admin = async () => {
        throw new Error('no admin connection on the embedded engine');
      };
    }
    const token = await signInEnrolling(server.base, 'admin@oyo-agro.example');
    const api = apiAt(server.base);
    let areaIds: string[];
    if (root) {
      areaIds = await seedDemoTenant(admin!, registered);
      process.stdout.write(`  seeded ${areaIds.length} areas and ${registered.length} registry farms in the demo tenant\n`);
      const worker = spawn(process.execPath, [path.join(httpRoot, 'apps/api/dist/worker.js')], { cwd: httpRoot, env, stdio: ['ignore', 'pipe', 'inherit'] });
      children.push(worker);
      worker.stdout?.on('data', (c: Buffer) => lines['worker']!.push(...c.toString().split('\n').filter(Boolean)));
      await new Promise((r) => setTimeout(r, 3000));
    } else {
      areaIds = embeddedAreaIds;
      process.stdout.write(`  seeded ${areaIds.length} areas and ${registered.length} registry farms in the demo tenant (before the restart)\n`);
    }
    const pids: Record<string, number | undefined> = { api: server.child.pid, ...(children[1] ? { worker: children[1].pid } : {}) };
    const before = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, rssMb(pid)]));
    const stopWatch = rssWatch(pids);
    // A request's view while the analysis runs: the analyses list every 100 ms; its longest answer.
    const u0 = performance.now();
    const probe = { max: 0, at: 0, stop: false, n: 0 };
    const probing = (async () => {
      while (!probe.stop) {
        const p0 = performance.now();
        await api('GET', '/api/custom-analysis/?page=1&page_size=10', token).catch(() => undefined);
        const took = performance.now() - p0;
        if (took > probe.max) Object.assign(probe, { max: took, at: p0 - u0 });
        probe.n++;
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const fields: Array<[string, string]> = [['name', `bench ${ROWS}`], ['require_farm_recognition', 'true'], ['operational_areas', JSON.stringify(areaIds)]];
    const res = await uploadFile(server.base, token, fields, upload.file, upload.name);
    const uploadMs = performance.now() - u0;
    if (res.status !== 201) throw new Error(`upload: ${res.status} ${JSON.stringify(res.body).slice(0, 400)}`);
    const id = res.body.data.id as string;
    process.stdout.write(`  upload → 201 (streamed to disk, parsed and staged in a stream, source stored): ${secs(uploadMs)} s\n`);
    let d: any;
    let lastProgress = -1;
    for (;;) {
      d = (await api('GET', `/api/custom-analysis/${id}/`, token)).body?.data;
      if (d && (d.status === 'completed' || d.status === 'failed')) break;
      if (args.includes('--verbose') && d?.progress !== lastProgress) {
        lastProgress = d?.progress;
        process.stdout.write(`    ${secs(performance.now() - u0)} s: ${d?.status} ${d?.progress}%\n`);
      }
      if (performance.now() - u0 > 1_800_000) throw new Error('not settled in 30 min');
      await new Promise((r) => setTimeout(r, 250));
    }
    const total = performance.now() - u0;
    probe.stop = true;
    await probing;
    const mem = stopWatch();
    process.stdout.write(`  analysis ${d.status} ${d.failure_reason ? `(${d.failure_reason}) ` : ''}${secs(total)} s upload to completed, ${Math.round(ROWS / (total / 1000))} rows/s\n`);
    process.stdout.write(`  result: within ${d.within_operational_area?.count}, outside ${d.outside_operational_area?.count}, errors ${d.errors?.count}, overlapping ${d.overlapping_farmlands?.count}, unrecognized ${d.unrecognized_farmlands?.count ?? '?'}, total ${d.total_uploaded_data_count ?? '?'}\n`);
    for (const [k, m] of Object.entries(mem)) process.stdout.write(`  ${k} process: RSS ${before[k]!.toFixed(0)} MB before, peak ${m.peak.toFixed(0)} MB during the analysis (sampled every 100 ms), VmHWM ${m.hwm.toFixed(0)} MB over the process's life\n`);
    process.stdout.write(`  longest answer of a concurrent GET /custom-analysis/ (every 100 ms, ${probe.n} requests): ${probe.max.toFixed(0)} ms, sent ${secs(probe.at)} s after the upload began\n`);
    const finished = [...lines['worker']!, ...lines['api']!].map((l) => {
      try {
        return JSON.parse(l) as { msg?: string; phases?: Record<string, { ms: number; statements: number; longestStatementMs: number }> };
      } catch {
        return {};
      }
    }).find((l) => l.msg === 'custom analysis finished');
    if (finished?.phases) process.stdout.write(`  job phases: ${Object.entries(finished.phases).map(([k, v]) => `${k} ${secs(v.ms)} s (${v.statements} statements, longest ${v.longestStatementMs} ms)`).join(', ')}\n`);
    const m = Object.values(mem);
    return { kind: `${kind} http${FORMAT !== 'csv' ? ` ${FORMAT}` : ''}`, seconds: total / 1000, rssMb: m[0]!.peak, workerMb: m[1]?.peak ?? null, probeMs: probe.max };
  } finally {
    await closeAdmin().catch(() => undefined);
    for (const c of children.reverse()) {
      if (c.exitCode === null) {
        c.kill('SIGTERM');
        await Promise.race([new Promise((r) => c.once('exit', r)), new Promise((r) => setTimeout(r, 15_000))]);
        if (c.exitCode === null) c.kill('SIGKILL');
      }
    }
    if (root) {
      await root.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
      await root.end();
    }
    fs.rmSync(work, { recursive: true, force: true });
  }
}

async function main() {
  // As the server does (MEMORY_TRIM_INTERVAL_S): free C-heap pages go back to the OS on a timer while the pipeline runs.
  const stopTrim = await startMallocTrim(pino({ level: 'silent' }), loadConfig({ NODE_ENV: 'test', APP_SECRET: 'bench-secret-that-is-long-enough-0123456789' }).memoryTrimIntervalMs);
  if (HTTP) {
    if (!fs.existsSync(path.join(httpRoot, 'apps/api/dist/server.js'))) throw new Error('run npm run build first');
    process.stdout.write(`load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}, ${os.cpus().length} cores\n`);
    const results = [];
    for (const kind of ENGINES) results.push(await benchHttp(kind));
    process.stdout.write('\nsummary (over HTTP, built server):\n');
    for (const r of results) {
      process.stdout.write(
        `  ${r.kind.padEnd(16)} ${ROWS} rows  ${r.seconds.toFixed(2)} s  ${Math.round(ROWS / r.seconds)} rows/s  peak RSS API ${r.rssMb.toFixed(0)} MB${r.workerMb !== null ? `, worker ${r.workerMb.toFixed(0)} MB` : ''}  max concurrent request ${r.probeMs.toFixed(0)} ms\n`,
      );
    }
    process.stdout.write(`load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}\n`);
    stopTrim();
    process.exit(0);
  }
  const data = generate(ROWS, AREAS, SEED);
  const file = data.csv;
  const results = [];
  for (const kind of ENGINES) {
    if (FORMAT !== 'geojson') results.push(await benchEngine(kind, data, file));
    // The same rows as a GeoJSON FeatureCollection (issue 13): rows/s of the GeoJSON path; --no-geojson skips it.
    if (!args.includes('--no-geojson')) results.push(await benchEngine(kind, data, geojsonOf(ROWS, SEED), 'bench.geojson'));
  }
  process.stdout.write('\nsummary:\n');
  for (const r of results) {
    process.stdout.write(
      `  ${r.kind.padEnd(16)} ${ROWS} rows  pipeline ${r.seconds.toFixed(2)} s  ${Math.round(ROWS / r.seconds)} rows/s  raw ${r.raw.toFixed(2)} s  ratio ${(r.seconds / r.raw).toFixed(2)}x  max loop block ${r.loopMs.toFixed(0)} ms  max query wait ${r.probeMs.toFixed(0)} ms  peak RSS ${r.rssMb.toFixed(0)} MB\n`,
    );
  }
  process.exit(0);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
