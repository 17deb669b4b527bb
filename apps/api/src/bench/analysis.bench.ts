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

import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import zlib from 'node:zlib';
import { analysisMap, envelope } from '@farmland/contracts';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import pino from 'pino';
import { loadConfig } from '../config.js';
import { root as httpRoot } from './http.js';
import type { Ctx, Deps } from '../context.js';
import { openDatabase, queryRows, runPgMigrations, withScope, type Database } from '../db/client.js';
import { deriveKeys } from '../lib/crypto.js';
import { loadMallocTrim, startMallocTrim, trimOnce } from '../lib/malloc-trim.js';
import { localStorage } from '../lib/storage.js';
import { runAnalysis } from '../modules/analyses/analyses.pipeline.js';
import { prewarmParseWorker } from '../modules/analyses/analyses.parse-client.js';
import { analysisMapJson, createAnalysis } from '../modules/analyses/analyses.service.js';
import { args, arg, ROWS, SEED, AREAS, ENGINES, PG_URL, DB_PREFIX, EXPLAIN, MEMFS, HTTP, FORMAT, tuning, NIGERIA, secs } from './analysis-options.js';
import { type Generated, farmRows, generate, geojsonOf } from './analysis-data.js';
import { explain, explainClassify, classifyParts } from './analysis-explain.js';
import { benchHttp } from './analysis-http.js';

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
  await e.admin(
    `INSERT INTO cities (id, country_id, name, latitude, longitude, location) VALUES ($1, '${NIGERIA}', 'Ogbomosho', 8.13, 4.24, ST_SetSRID(ST_MakePoint(4.24, 8.13), 4326))`,
    [cityId],
  );
  return { cityId };
}

async function seedTenant(e: Engine, cityId: string, data: Generated) {
  const [t] = (await e.admin(`INSERT INTO tenants (name, country_id) VALUES ('Bench tenant', '${NIGERIA}') RETURNING id`)) as Array<{ id: string }>;
  const tenantId = t!.id;
  await e.admin(`INSERT INTO tenant_configurations (tenant_id, minimum_farm_size, recognition_threshold) VALUES ($1, 100, 0.5)`, [tenantId]);
  const [u] = (await e.admin(
    `INSERT INTO users (tenant_id, role, email, first_name, last_name) VALUES ($1, 'tenant_admin', 'bench@example.com', 'Bench', 'Admin') RETURNING id`,
    [tenantId],
  )) as Array<{ id: string }>;
  const [r] = (await e.admin(`INSERT INTO regions (tenant_id, country_id, name) VALUES ($1, '${NIGERIA}', 'Bench') RETURNING id`, [tenantId])) as Array<{
    id: string;
  }>;
  await e.admin(
    `INSERT INTO operational_areas (tenant_id, name, region_id, city_id, geom, area_sqm)
     SELECT $1, a.name, $2, $3, g, ST_Area(g::geography)
       FROM jsonb_to_recordset($4::jsonb) AS a(name text, ring jsonb), LATERAL (SELECT ST_SetSRID(ST_GeomFromGeoJSON(jsonb_build_object('type', 'Polygon', 'coordinates', jsonb_build_array(a.ring))), 4326) AS g) x`,
    [tenantId, r!.id, cityId, JSON.stringify(data.areas)],
  );
  const [f] = (await e.admin(`INSERT INTO farmers (tenant_id, first_name, last_name, folio_id) VALUES ($1, 'Reg', 'Istry', 'F-1') RETURNING id`, [
    tenantId,
  ])) as Array<{ id: string }>;
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

async function rawQueries(e: Engine, tenantId: string): Promise<Record<string, number>> {
  const wkts: Array<{ n: number; wkt: string }> = [];
  for (const r of farmRows(ROWS, SEED)) if (r.ring && r.name) wkts.push({ n: r.i + 1, wkt: `POLYGON((${r.ring.map((p) => `${p[0]} ${p[1]}`).join(',')}))` });
  const t: Record<string, number> = {};
  let t0 = performance.now();
  await e.admin('CREATE TABLE bench_raw (n int, geom geometry(Polygon, 4326))');
  for (let i = 0; i < wkts.length; i += 20000) {
    await e.admin(
      `INSERT INTO bench_raw SELECT s.n, g FROM jsonb_to_recordset($1::jsonb) AS s(n int, wkt text), LATERAL (SELECT ST_GeomFromText(s.wkt, 4326) AS g) x WHERE ST_IsValid(g)`,
      [JSON.stringify(wkts.slice(i, i + 20000))],
    );
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
  t['total'] = t['load'] + t['within'] + t['overlaps'] + t['area'];
  await e.admin('DROP TABLE bench_raw');
  return t;
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
      const [a, b] = line
        .split(' ')[0]!
        .split('-')
        .map((x) => Number.parseInt(x, 16));
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
    const deps: Deps = {
      config,
      database: e.database,
      db: e.database.db,
      keys: deriveKeys(config.secret),
      storage: localStorage(path.join(dataDir, 'files')),
      log: pino({ level: 'silent' }),
    };
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
        await withScope(deps.db, { kind: 'tenant', tenantId: s.tenantId }, (tx) =>
          tx.execute(sql`SELECT count(*) FROM custom_analyses WHERE tenant_id = ${s.tenantId}`),
        );
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
    if (args.includes('--verbose')) process.stdout.write(`    parse+create: ${secs(phases['parse+stage (worker thread) and create'])} s\n`);
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
      queryRows<Record<string, number>>(
        tx,
        sql`SELECT within_count, outside_count, error_count, overlapping_count, unrecognized_count, round(total_area) AS total_area FROM custom_analyses WHERE id = ${created.id}`,
      ),
    );
    process.stdout.write(
      `  pipeline: ${result}, ${secs(total)} s, ${Math.round(ROWS / (total / 1000))} rows/s, peak RSS ${Math.round(peakRss / 1048576)} MB, longest event-loop block ${(loop.max / 1e6).toFixed(1)} ms, longest wait of a concurrent query ${probe.max.toFixed(0)} ms\n`,
    );
    // CPU of this process (main thread, parse worker and, on PGlite, the database): steadier than wall time on a shared machine.
    process.stdout.write(`  process CPU: ${secs((cpu.user + cpu.system) / 1000)} s\n`);
    process.stdout.write(
      `  phases: ${Object.entries(phases)
        .map(([k, v]) => `${k} ${secs(v)} s`)
        .join(', ')}\n`,
    );
    process.stdout.write(
      `  longest block per phase (timer lateness): ${Object.entries(blockByPhase)
        .map(([k, v]) => `${k} ${v.toFixed(0)} ms`)
        .join(', ')}\n`,
    );
    process.stdout.write(
      `  longest statement per phase: ${Object.entries(stmtMaxByPhase)
        .map(([k, v]) => `${k} ${v.toFixed(0)} ms`)
        .join(', ')}\n`,
    );
    process.stdout.write(`  memory per phase:\n${memByPhase.map((x) => `    ${x}`).join('\n')}\n`);
    process.stdout.write(
      `  process CPU per phase: ${Object.entries(cpuByPhase)
        .map(([k, v]) => `${k} ${secs(v)} s`)
        .join(', ')}\n`,
    );
    // Statements' wall time summed (with more than one in flight on PostgreSQL, the sum exceeds the phase).
    process.stdout.write(
      `  statements per phase: ${Object.entries(stmtSumByPhase)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}\n`,
    );
    process.stdout.write(`  result: ${JSON.stringify(sum)}\n`);

    const raw = await rawQueries(e, s.tenantId);
    process.stdout.write(
      `  raw PostGIS: load ${secs(raw['load']!)} s, within ${secs(raw['within']!)} s, overlaps ${secs(raw['overlaps']!)} s, area ${secs(raw['area']!)} s = ${secs(raw['total']!)} s\n`,
    );
    process.stdout.write(`  pipeline / raw = ${(total / raw['total']!).toFixed(2)}x\n`);
    if (EXPLAIN) await explain(deps, s.tenantId, created.id, s.areaIds);
    if (args.includes('--map')) await benchMap(deps, ctx, created.id);
    if (args.includes('--explain-classify')) await explainClassify(deps, s.tenantId, s.areaIds, file);
    if (args.includes('--parts')) await classifyParts(deps, s.tenantId, s.areaIds, file);
    fs.rmSync(dataDir, { recursive: true, force: true });
    return {
      kind: filename === 'bench.csv' ? kind : `${kind} ${path.extname(filename).slice(1)}`,
      seconds: total / 1000,
      raw: raw['total']! / 1000,
      loopMs: loop.max / 1e6,
      probeMs: probe.max,
      rssMb: peakRss / 1048576,
    };
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
  process.stdout.write(
    `  map (GET /custom-analysis/{id}/map/ server side, ${features} features, ${runs} runs): p50 ${q(times, 50).toFixed(0)} ms, p95 ${q(times, 95).toFixed(0)} ms\n`,
  );
  process.stdout.write(
    `  map body: ${(bytes / 1048576).toFixed(2)} MB (${Math.round(bytes / Math.max(1, features))} bytes a feature), gzipped ${(zlib.gzipSync(body).length / 1048576).toFixed(2)} MB\n`,
  );
}

async function main() {
  // As the server does (MEMORY_TRIM_INTERVAL_S): free C-heap pages go back to the OS on a timer while the pipeline runs.
  const stopTrim = await startMallocTrim(
    pino({ level: 'silent' }),
    loadConfig({ NODE_ENV: 'test', APP_SECRET: 'bench-secret-that-is-long-enough-0123456789' }).memoryTrimIntervalMs,
  );
  if (HTTP) {
    if (!fs.existsSync(path.join(httpRoot, 'apps/api/dist/server.js'))) throw new Error('run npm run build first');
    process.stdout.write(
      `load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}, ${os.cpus().length} cores\n`,
    );
    const results = [];
    for (const kind of ENGINES) results.push(await benchHttp(kind));
    process.stdout.write('\nsummary (over HTTP, built server):\n');
    for (const r of results) {
      process.stdout.write(
        `  ${r.kind.padEnd(16)} ${ROWS} rows  ${r.seconds.toFixed(2)} s  ${Math.round(ROWS / r.seconds)} rows/s  peak RSS API ${r.rssMb.toFixed(0)} MB${r.workerMb !== null ? `, worker ${r.workerMb.toFixed(0)} MB` : ''}  max concurrent request ${r.probeMs.toFixed(0)} ms\n`,
      );
    }
    process.stdout.write(
      `load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}\n`,
    );
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
