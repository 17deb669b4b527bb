// `npm run bench:screening -- [--engine pglite|pg] [--polygons 1000000] [--farms 100000] [--port 3461] [--captures 30]
//  [--probe-ms 100] [--seed 29] [--keep]`: issue 29's targets for reference layers, against the built server as
// `npm start` runs it (its own port and data directory; on PostgreSQL a fresh database, the API with
// ANALYSIS_WORKERS=off and one `npm run worker` process that runs the load, as in bench:footprint).
//  * Data (synthetic, deterministic from --seed): a fragmented forest mosaic of --polygons polygons over a square region
//    near the demo tenant (one patch per ~300 m cell, radius 45–150 m, 1 in 200 a large patch of 300–450 m with
//    60–300 vertices that ST_Subdivide cuts and that overlaps its neighbours; irregular star-shaped rings, 6 decimals),
//    written as one GeoJSON file (cached under the OS temp dir by size and seed) and uploaded through the API's upload
//    route (POST /api/reference-layers/, multipart, streamed), so the load job reads it as any upload. --farms registry
//    farms of 0.5–10 ha (irregular rings, 6–11 vertices) at random over the same region, of the demo tenant's farmers,
//    inserted by SQL before the layer is uploaded (on PGlite with the server stopped: one process holds the directory).
//  * Printed: upload time (POST to 202), layer load time (upload start to the version in use: status "screening"),
//    screening time (to status "ready"), RSS of the server (and worker) before and at the peak of each phase, the
//    latency of a probe request (GET /api/farms/, one every --probe-ms, sequential) during load and screening
//    (p50/p95/max and how many over 200 ms), and per-capture screening cost: the screening statement (screenFarms, the
//    one a capture runs in its transaction) for --captures farms on forest, each in a rolled-back transaction; on
//    PostgreSQL with EXPLAIN ANALYZE of one of them. Also the HTTP capture time (POST /api/farms/) before and after.
//  * CPU seconds per phase (bench/meters.ts cpuMeter), split by process: the API (`server`), the `worker`, and on
//    PostgreSQL the database backends by the connection's application_name (`worker db`: the load's and the screening's
//    own database work; `api db`: mostly the probes' and the progress polls').
// Figures on a shared machine are noisy: the load average is printed at each step.
/* eslint-disable @typescript-eslint/no-explicit-any -- the benchmark reads the API's JSON untyped, as any client would */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, withScope, type Database } from '../db/client.js';
import { createRng } from '../lib/prng.js';
import { screenFarms } from '../modules/reference-layers/reference-layers.screening.js';
import { apiAt, percentile, root, rssMb, signInEnrolling, startServer, stopServer, type Server } from './http.js';
import { cpuMeter, latencyStats, listProbe, rssSampler } from './meters.js';

const args = process.argv.slice(2);
const arg = (name: string, dflt: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] && !args[i + 1]!.startsWith('--') ? args[i + 1]! : dflt;
};
const ENGINE = arg('engine', 'pglite') === 'postgres' ? 'pg' : arg('engine', 'pglite');
if (ENGINE !== 'pglite' && ENGINE !== 'pg') throw new Error('--engine is pglite or pg');
const POLYGONS = Number(arg('polygons', '1000000'));
const FARMS = Number(arg('farms', '100000'));
const PORT = Number(arg('port', '3461'));
const CAPTURES = Number(arg('captures', '30'));
const PROBE_MS = Number(arg('probe-ms', '100'));
const SEED = Number(arg('seed', '29'));
const KEEP = args.includes('--keep');
const PG_URL = process.env['BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

const ORIGIN = [3.0, 7.0] as const; // the region's south-west corner (Oyo State, near the demo tenant)
const M_LAT = 111_320;
const M_LNG = M_LAT * Math.cos(((ORIGIN[1] + 1) * Math.PI) / 180);
const CELL_M = 300;
const GRID = Math.ceil(Math.sqrt(POLYGONS));
const REGION_M = GRID * CELL_M;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const lngOf = (x: number) => ORIGIN[0] + x / M_LNG;
const latOf = (y: number) => ORIGIN[1] + y / M_LAT;

/** An irregular star-shaped ring (valid: angles increase) of n vertices around (x, y) in metres, closed, 6 decimals. */
function ring(rng: { next(): number }, x: number, y: number, r: number, n: number): string {
  const pts: string[] = [];
  const turn = rng.next() * 2 * Math.PI;
  for (let k = 0; k < n; k++) {
    const a = turn + (2 * Math.PI * (k + 0.3 * rng.next())) / n;
    const rr = r * (0.65 + 0.35 * rng.next());
    pts.push(`[${lngOf(x + rr * Math.cos(a)).toFixed(6)},${latOf(y + rr * Math.sin(a)).toFixed(6)}]`);
  }
  pts.push(pts[0]!);
  return `[${pts.join(',')}]`;
}

/** The forest patch of cell i: its centre (metres) and ring. */
function patch(rng: { next(): number }, i: number): { x: number; y: number; ring: string } {
  const cx = (i % GRID) * CELL_M + CELL_M / 2 + (rng.next() - 0.5) * 0.3 * CELL_M;
  const cy = Math.floor(i / GRID) * CELL_M + CELL_M / 2 + (rng.next() - 0.5) * 0.3 * CELL_M;
  const large = rng.next() < 0.005;
  const r = large ? 300 + rng.next() * 150 : 45 + 105 * rng.next() ** 1.5;
  const n = large ? 60 + Math.floor(rng.next() * 240) : 6 + Math.floor(rng.next() * 20);
  return { x: cx, y: cy, ring: ring(rng, cx, cy, r, n) };
}

/** Writes (or reuses) the layer's GeoJSON file; returns its path and the centres of the first patches (for captures). */
async function layerFile(): Promise<{ file: string; bytes: number; ms: number }> {
  const file = path.join(os.tmpdir(), `farmland-forest-mosaic-${POLYGONS}-${SEED}.geojson`);
  if (fs.existsSync(file) && fs.existsSync(`${file}.done`)) return { file, bytes: fs.statSync(file).size, ms: 0 };
  const t0 = performance.now();
  const out = fs.createWriteStream(file);
  const write = (chunk: string) => (out.write(chunk) ? Promise.resolve() : new Promise<void>((r) => out.once('drain', () => r())));
  const rng = createRng(SEED);
  await write('{"type":"FeatureCollection","name":"Synthetic forest mosaic 2020","features":[\n');
  let buf = '';
  for (let i = 0; i < POLYGONS; i++) {
    const p = patch(rng, i);
    buf += `${i ? ',\n' : ''}{"type":"Feature","properties":{"patch":${i + 1}},"geometry":{"type":"Polygon","coordinates":[${p.ring}]}}`;
    if (buf.length > 1 << 20) {
      await write(buf);
      buf = '';
    }
  }
  await write(`${buf}\n]}\n`);
  await new Promise<void>((r) => out.end(() => r()));
  fs.writeFileSync(`${file}.done`, '');
  return { file, bytes: fs.statSync(file).size, ms: performance.now() - t0 };
}

/** Farms of 0.5–10 ha at random over the region, as GeoJSON polygons, in batches. */
function* farmBatches(n: number, batch: number): Generator<Array<{ i: number; g: string }>> {
  const rng = createRng(SEED * 1000 + 1);
  let rows: Array<{ i: number; g: string }> = [];
  for (let i = 0; i < n; i++) {
    const ha = 0.5 + 9.5 * rng.next() ** 2;
    const r = Math.sqrt((ha * 10_000) / Math.PI) * 1.12; // the ring's mean radius is below r
    const x = r + rng.next() * (REGION_M - 2 * r);
    const y = r + rng.next() * (REGION_M - 2 * r);
    rows.push({ i, g: `{"type":"Polygon","coordinates":[${ring(rng, x, y, r, 6 + Math.floor(rng.next() * 6))}]}` });
    if (rows.length === batch) {
      yield rows;
      rows = [];
    }
  }
  if (rows.length) yield rows;
}

type Exec = (text: string, params?: unknown[]) => Promise<any[]>;

const INSERT_FARMS = `
  INSERT INTO farms (tenant_id, farmer_id, name, geom, area_sqm, created_at)
  SELECT $1::uuid, ($3::uuid[])[1 + x.i % array_length($3::uuid[], 1)], 'Registry farm ' || x.i, g.geom, ST_Area(g.geom::geography), now()
    FROM jsonb_to_recordset($2::jsonb) AS x(i int, g text)
    CROSS JOIN LATERAL (SELECT ST_SetSRID(ST_GeomFromGeoJSON(x.g), 4326) AS geom) g`;

async function seedFarms(exec: Exec): Promise<{ tenantId: string; ms: number }> {
  const t0 = performance.now();
  const [t] = await exec(`SELECT id FROM tenants WHERE name = 'Oyo Agro Cooperative'`);
  const tenantId = t.id as string;
  const farmers = (await exec(`SELECT id FROM farmers WHERE tenant_id = $1 ORDER BY id`, [tenantId])).map((r) => r.id as string);
  for (const rows of farmBatches(FARMS, 5000)) await exec(INSERT_FARMS, [tenantId, JSON.stringify(rows), `{${farmers.join(',')}}`]);
  await exec('ANALYZE farms');
  return { tenantId, ms: performance.now() - t0 };
}

/** Streams a multipart upload of the file to the route; resolves with the status and JSON body. */
function uploadLayer(base: string, token: string, file: string): Promise<{ status: number; body: any }> {
  const boundary = `----bench${crypto.randomBytes(8).toString('hex')}`;
  const fields = {
    name: 'Forest 2020 (synthetic mosaic)',
    kind: 'forest_2020',
    reference_date: '2020-12-31',
    source: 'bench:screening synthetic forest mosaic',
    licence: 'CC0-1.0',
  };
  const head = Buffer.from(
    Object.entries(fields)
      .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
      .join('') +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="forest-mosaic.geojson"\r\nContent-Type: application/geo+json\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const size = head.length + fs.statSync(file).size + tail.length;
  const u = new URL(`${base}/api/reference-layers/`);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': size },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.write(head);
    const stream = fs.createReadStream(file);
    stream.on('error', reject);
    stream.on('end', () => req.end(tail));
    stream.pipe(req, { end: false });
  });
}

/** One ring of ~1 ha around a forest patch's centre (always on forest), for captures and the per-capture cost. */
function forestFarms(n: number): string[] {
  const rng = createRng(SEED);
  const out: string[] = [];
  const step = Math.max(1, Math.floor(POLYGONS / n));
  for (let i = 0; i < POLYGONS && out.length < n; i++) {
    const p = patch(rng, i);
    if (i % step === 0) out.push(`{"type":"Polygon","coordinates":[${ring(createRng(i), p.x + 20, p.y, 60, 8)}]}`);
  }
  return out;
}

async function captureTimes(base: string, token: string, farmerId: string, rings: string[], label: string): Promise<number[]> {
  const api = apiAt(base);
  const times: number[] = [];
  for (const [i, g] of rings.entries()) {
    const coordinates = JSON.parse(g).coordinates[0];
    const t0 = performance.now();
    const r = await api('POST', '/api/farms/', token, { farmer_id: farmerId, name: `Bench capture ${label} ${i}`, coordinates });
    if (r.status !== 201) throw new Error(`capture ${label} ${i}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
    times.push(performance.now() - t0);
  }
  return times;
}

/** screenFarms (the statement a capture runs) for each farm alone, in a rolled-back transaction: its time in ms. */
async function screeningCost(database: Database, tenantId: string, farmIds: string[]): Promise<number[]> {
  const times: number[] = [];
  class Rollback extends Error {}
  for (const id of farmIds) {
    await withScope(database.db, { kind: 'tenant', tenantId }, async (tx) => {
      const t0 = performance.now();
      await screenFarms(tx, tenantId, [id]);
      times.push(performance.now() - t0);
      throw new Rollback();
    }).catch((err: unknown) => {
      if (!(err instanceof Rollback)) throw err;
    });
  }
  return times;
}

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(root, 'apps/api/dist/server.js'))) throw new Error('run npm run build first');
  console.log(
    `screening benchmark: ${ENGINE}, ${POLYGONS} polygons, ${FARMS} farms; ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(1)} GB, Node ${process.version}; load average ${load()}`,
  );
  const layer = await layerFile();
  console.log(
    `  layer file: ${(layer.bytes / 1048576).toFixed(0)} MB GeoJSON, ${layer.ms ? `written in ${s(layer.ms)}` : 'reused'} (${layer.file}); region ${(REGION_M / 1000).toFixed(0)} km square`,
  );

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'farmland-screening-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(PORT),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    APP_SECRET: crypto.randomBytes(32).toString('hex'),
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'true',
    UPLOAD_LIMIT_BYTES: String(layer.bytes + 1048576),
  };
  delete env['DATABASE_URL'];
  let dbName = '';
  let adminUrl = '';
  const children: ChildProcess[] = [];
  let server: Server | null = null;
  try {
    // 1. A fresh database with the demo data; the registry farms inserted by SQL.
    let tenantId = '';
    const t0 = performance.now();
    if (ENGINE === 'pg') {
      dbName = `farmland_screen_${crypto.randomBytes(3).toString('hex')}`;
      const a = new pg.Client({ connectionString: PG_URL });
      await a.connect();
      await a.query(`CREATE DATABASE ${dbName}`);
      await a.end();
      adminUrl = PG_URL.replace(/\/[^/]*$/, `/${dbName}`);
      const setup = spawn(process.execPath, [path.join(root, 'apps/api/dist/bin/db-setup.js'), '--admin-url', adminUrl, '--app-user', 'farmland_screen'], {
        cwd: root,
        stdio: 'ignore',
        env,
      });
      await new Promise((r) => setup.on('exit', r));
      env['DATABASE_URL'] = adminUrl.replace('postgres@', 'farmland_screen@');
      env['DATABASE_ADMIN_URL'] = adminUrl;
      server = await startServer({ ...env, ANALYSIS_WORKERS: 'off', PGAPPNAME: 'bench-api' }, { timeoutMs: 600_000 });
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      const seeded = await seedFarms(async (text, params) => (await c.query(text, params)).rows);
      await c.end();
      tenantId = seeded.tenantId;
      console.log(
        `  database and demo data in ${s(seeded.ms ? performance.now() - t0 - seeded.ms : 0)}; ${FARMS} farms inserted in ${s(seeded.ms)}; load average ${load()}`,
      );
      const worker = spawn(process.execPath, [path.join(root, 'apps/api/dist/worker.js')], {
        cwd: root,
        env: { ...env, SEED_DEMO: 'false', PGAPPNAME: 'bench-worker' },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      children.push(worker);
      await sleep(3000);
    } else {
      // One process holds an embedded data directory: a first start (migrations, demo data), stopped; the farms
      // inserted in this process; then the server again on the same directory.
      const first = await startServer(env, { timeoutMs: 900_000 });
      // /api/health answers before the demo data is in: wait until the demo admin can sign in.
      for (
        let i = 0;
        i < 600 && (await apiAt(first.base)('POST', '/api/auth/login/', null, { email: 'admin@oyo-agro.example', password: 'Farmland#2026' })).status !== 200;
        i++
      )
        await sleep(1000);
      await stopServer(first);
      const database = await openDatabase({ kind: 'pglite', dataDir: path.join(dataDir, 'pglite') });
      const seeded = await seedFarms((text, params) => database.adminQuery<any>(text, params ?? []));
      await database.close();
      tenantId = seeded.tenantId;
      console.log(
        `  data directory and demo data in ${s(performance.now() - t0 - seeded.ms)}; ${FARMS} farms inserted in ${s(seeded.ms)}; load average ${load()}`,
      );
      server = await startServer({ ...env, SEED_DEMO: 'false' }, { timeoutMs: 900_000 });
    }
    const worker = children[0];
    const token = await signInEnrolling(server.base, 'admin@oyo-agro.example');
    const api = apiAt(server.base);
    const farmer = (await api('GET', '/api/farmers/?page=1&page_size=1', token)).body.data.results[0].id as string;
    // Captures are an agent's: the first active agent of the demo tenant.
    const agents = (await api('GET', '/api/accounts/agents/?page=1&page_size=50', token)).body.data.results as Array<{
      email: string;
      is_suspended: boolean;
      is_active?: boolean;
    }>;
    const agentToken = await signInEnrolling(server.base, agents.find((a) => !a.is_suspended && a.is_active !== false)!.email);
    const rings = forestFarms(CAPTURES * 2);
    await sleep(5000);
    const before = await captureTimes(server.base, agentToken, farmer, rings.slice(0, CAPTURES), 'before');
    console.log(`  capture (POST /api/farms/) with no layer: ${latencyStats(before)}; load average ${load()}`);

    // 2. Upload, load, screening: phases from the layer's status, probes and RSS meanwhile.
    let phase = 'upload';
    const pids = { server: server.child.pid, ...(worker ? { worker: worker.pid } : {}) };
    const rssBefore = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, rssMb(pid)]));
    const samplers = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, rssSampler(pid, () => phase)]));
    const probes = listProbe(server.base, token, () => phase, PROBE_MS);
    const statClient = ENGINE === 'pg' ? new pg.Client({ connectionString: adminUrl }) : null;
    await statClient?.connect();
    const cpu = cpuMeter(
      Object.fromEntries(Object.entries(pids).filter((e): e is [string, number] => typeof e[1] === 'number')),
      statClient
        ? async () =>
            // The worker's connections (the load and the screening) apart from the API's (probes, polls): PGAPPNAME.
            (
              await statClient.query(
                `SELECT pid, CASE application_name WHEN 'bench-worker' THEN 'worker db' WHEN 'bench-api' THEN 'api db' ELSE 'other db' END AS grp
                   FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
              )
            ).rows.map((r) => ({ pid: Number(r.pid), group: String(r.grp) }))
        : null,
      () => phase,
    );
    const loadAt: Record<string, string> = { start: load() };
    const tUp = performance.now();
    const up = await uploadLayer(server.base, token, layer.file);
    if (up.status !== 202) throw new Error(`upload: ${up.status} ${JSON.stringify(up.body).slice(0, 300)}`);
    const uploadMs = performance.now() - tUp;
    const layerId = up.body.data.id as string;
    phase = 'load';
    let loadMs = 0;
    let screenMs = 0;
    let detail: any = null;
    for (;;) {
      await sleep(250);
      // A poll that gets no answer in 10 s is dropped (on the full run one stayed pending for good and held the
      // benchmark in its first phase while the layer had finished).
      const r = await Promise.race([api('GET', `/api/reference-layers/${layerId}/progress/`, token).catch(() => null), sleep(10_000).then(() => null)]);
      if (!r || r.status !== 200) continue;
      const st = r.body.data.status as string;
      if (st === 'failed') throw new Error(`load failed: ${JSON.stringify(r.body.data)}`);
      if ((st === 'screening' || st === 'ready') && !loadMs) {
        loadMs = performance.now() - tUp;
        loadAt['swap'] = load();
        phase = 'screening';
      }
      if (st === 'ready') {
        screenMs = performance.now() - tUp - loadMs;
        loadAt['ready'] = load();
        break;
      }
      if (performance.now() - tUp > 7_200_000) throw new Error('not ready in 2 h');
    }
    phase = 'after';
    const pr = await probes.stop();
    const cpuBy = await cpu.stop();
    await statClient?.end();
    const peaks = Object.fromEntries(Object.entries(samplers).map(([k, stop]) => [k, stop()]));
    detail = (await api('GET', `/api/reference-layers/${layerId}/`, token)).body.data;
    console.log(`  upload (POST to 202, ${(layer.bytes / 1048576).toFixed(0)} MB): ${s(uploadMs)}`);
    console.log(
      `  LAYER LOAD (upload start to version in use): ${s(loadMs)} — ${detail.feature_count} features, ${detail.piece_count} pieces, ${detail.repaired_count} repaired; load average ${loadAt['start']} → ${loadAt['swap']}`,
    );
    console.log(`  SCREENING of ${FARMS} farms (version in use to ready): ${s(screenMs)}; load average → ${loadAt['ready']}`);
    const cpuS = (p: string) => `${((cpuBy.get(p) ?? 0) / 1000).toFixed(1)} CPU s`;
    console.log(
      `  CPU time (${ENGINE === 'pg' ? 'API, worker and the database backends' : 'the server process, every thread'}): upload ${cpuS('upload')}, load ${cpuS('load')}, screening ${cpuS('screening')} (of ${os.cpus().length} cores)`,
    );
    for (const ph of ['upload', 'load', 'screening']) {
      const g = [...(cpuBy.byGroup.get(ph) ?? new Map<string, number>())].map(([k, ms]) => `${k} ${(ms / 1000).toFixed(1)}`).join(', ');
      console.log(`    ${ph} CPU s by process: ${g || 'none'}`);
    }
    for (const [k, p] of Object.entries(peaks)) {
      console.log(
        `  RSS ${k}: before ${rssBefore[k]!.toFixed(0)} MB, peak during upload ${(p.get('upload') ?? 0).toFixed(0)} MB, load ${(p.get('load') ?? 0).toFixed(0)} MB, screening ${(p.get('screening') ?? 0).toFixed(0)} MB`,
      );
    }
    for (const ph of ['upload', 'load', 'screening']) {
      const xs = pr.times.get(ph) ?? [];
      console.log(
        `  probe GET /api/farms/ during ${ph}: ${latencyStats(xs)}, over 200 ms: ${xs.filter((x) => x > 200).length}, failed: ${pr.failures.get(ph) ?? 0}`,
      );
    }

    // 3. Per-capture cost: captures over HTTP now (one layer in use), and the screening statement alone.
    const after = await captureTimes(server.base, agentToken, farmer, rings.slice(CAPTURES), 'after');
    console.log(
      `  capture (POST /api/farms/) with the layer: ${latencyStats(after)}; p50 difference ${(percentile(after, 50) - percentile(before, 50)).toFixed(1)} ms; load average ${load()}`,
    );
    let costDb: Database | null = null;
    if (ENGINE === 'pg') {
      costDb = await openDatabase({ kind: 'postgres', url: env['DATABASE_URL']!, adminUrl, poolSize: 1 });
    } else {
      await stopServer(server);
      server = null;
      costDb = await openDatabase({ kind: 'pglite', dataDir: path.join(dataDir, 'pglite') });
    }
    try {
      const counts = await costDb.adminQuery<{ farms: number; screened: number; overlapping: number; over10: number }>(
        `SELECT (SELECT count(*)::int FROM farms WHERE tenant_id = $1) AS farms, (SELECT count(*)::int FROM farm_screenings WHERE layer_id = $2) AS screened,
                (SELECT count(*)::int FROM farm_screenings WHERE layer_id = $2 AND overlap_sqm > 0) AS overlapping,
                (SELECT count(*)::int FROM farm_screenings WHERE layer_id = $2 AND share > 0.1) AS over10`,
        [tenantId, layerId],
      );
      const c = counts[0]!;
      console.log(`  figures: ${c.screened} of ${c.farms} farms screened, ${c.overlapping} overlap the forest, ${c.over10} by more than 10 %`);
      const ids = (
        await costDb.adminQuery<{ farm_id: string }>(`SELECT farm_id FROM farm_screenings WHERE layer_id = $1 AND overlap_sqm > 0 ORDER BY farm_id LIMIT $2`, [
          layerId,
          CAPTURES,
        ])
      ).map((r) => r.farm_id);
      await screeningCost(costDb, tenantId, ids.slice(0, 3));
      const cost = await screeningCost(costDb, tenantId, ids);
      console.log(
        `  PER-CAPTURE SCREENING (screenFarms of one farm on forest, ${ENGINE === 'pg' ? 'app role, pool of 1' : 'in-process PGlite'}): ${latencyStats(cost)}; load average ${load()}`,
      );
    } finally {
      await costDb.close();
    }
  } finally {
    if (server) await stopServer(server);
    for (const c of children) {
      if (c.exitCode === null) {
        c.kill('SIGTERM');
        await Promise.race([new Promise((r) => c.once('exit', r)), sleep(15_000)]);
      }
    }
    if (!KEEP) fs.rmSync(dataDir, { recursive: true, force: true });
    else console.log(`  kept ${ENGINE === 'pg' ? `database ${dbName}` : `data directory ${dataDir}`}`);
    if (dbName && !KEEP) {
      const a = new pg.Client({ connectionString: PG_URL });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
      await a.end();
    }
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
