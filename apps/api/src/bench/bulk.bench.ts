// `npm run bench:bulk -- [--rows 5000] [--farmers 100000] [--engine pglite|postgres|both] [--requests 200] [--keep]`:
// issue 9's speed checks on each engine. (1) A farmers bulk upload of N rows, each with a farm (the whole service path:
// parse in the worker, every check, ST_IsValid, inserts, overlap upkeep, one transaction), timed with the longest
// event-loop block meanwhile; targets ≤ 5 s on PostgreSQL and ≤ 10 s embedded for 5,000, no block over 100 ms.
// (2) With the tenant grown to --farmers farmers, the farmers and agents lists (plain pages, search, is_mapped, region):
// p50/p95 of the service call over --requests calls; target p95 ≤ 50 ms with 100k farmers.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import pg from 'pg';
import pino from 'pino';
import { loadConfig } from '../config.js';
import type { Ctx, Deps } from '../context.js';
import { openDatabase, runPgMigrations, type Database } from '../db/client.js';
import { deriveKeys } from '../lib/crypto.js';
import { createRng } from '../lib/prng.js';
import { localStorage } from '../lib/storage.js';
import { listAgents } from '../modules/agents/agents.service.js';
import { prewarmParseWorker } from '../modules/analyses/analyses.parse-client.js';
import { bulkUploadFarmers } from '../modules/farmers/farmers.bulk.js';
import { listFarmers } from '../modules/farmers/farmers.service.js';

const args = process.argv.slice(2);
const arg = (name: string, dflt: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] && !args[i + 1]!.startsWith('--') ? args[i + 1]! : dflt;
};
const ROWS = Number(arg('rows', '5000'));
const FARMERS = Number(arg('farmers', '100000'));
const REQUESTS = Number(arg('requests', '200'));
const ENGINES = arg('engine', 'both') === 'both' ? (['pglite', 'postgres'] as const) : ([arg('engine', 'both')] as Array<'pglite' | 'postgres'>);
const PG_URL = process.env['BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const NIGERIA = '1e7050d0-9e8f-5e82-9ca3-884850256d74';
const CENTER = [3.7717, 7.6466] as const;
const M_LAT = 111_320;
const M_LNG = M_LAT * Math.cos((CENTER[1] * Math.PI) / 180);

/** A farmers file of n rows, each with a farm: 40–60 m polygons on a 150 m grid, 5 % shifted onto a neighbour (overlaps). */
function farmersCsv(n: number, seed = 7): Buffer {
  const rng = createRng(seed);
  const side = Math.ceil(Math.sqrt(n));
  const lines = ['first_name,last_name,email,phone_number,gender,address,location,folio_id,farm_name,operational_area_id,farm_coordinates'];
  for (let i = 0; i < n; i++) {
    const gx = (i % side) * 150 + (rng.next() < 0.05 ? 80 : 0);
    const gy = Math.floor(i / side) * 150;
    const r = 40 + rng.next() * 20;
    const pts: Array<[number, number]> = [];
    for (let k = 0; k < 6; k++) {
      const t = (k * Math.PI) / 3;
      pts.push([Math.round((CENTER[0] + (gx + r * Math.cos(t)) / M_LNG) * 1e7) / 1e7, Math.round((CENTER[1] + (gy + r * Math.sin(t)) / M_LAT) * 1e7) / 1e7]);
    }
    lines.push(
      `Farmer,${i + 1},f${i + 1}@example.com,+23480${String(30000000 + i)},${i % 2 ? 'Male' : 'Female'},${i + 1} Farm Road,Oyo,BULK-${i + 1},Farm ${i + 1},,"${JSON.stringify(pts).replace(/"/g, '""')}"`,
    );
  }
  return Buffer.from(lines.join('\n') + '\n');
}

type Engine = { database: Database; admin: (text: string, params?: unknown[]) => Promise<unknown[]>; close: () => Promise<void> };

async function openEngine(kind: 'pglite' | 'postgres'): Promise<Engine> {
  if (kind === 'pglite') {
    const database = await openDatabase({ kind: 'pglite', dataDir: null });
    return { database, admin: (t, p) => database.adminQuery(t, p ?? []), close: () => database.close() };
  }
  // FARMLAND_TEST_RUN prefixes the database's name, as in the tests (several sessions share one server).
  const name = `${process.env['FARMLAND_TEST_RUN'] ? `${process.env['FARMLAND_TEST_RUN']}_` : ''}people_bulk_bench_${process.pid}`;
  const root = new pg.Client({ connectionString: PG_URL });
  await root.connect();
  await root.query(`DROP DATABASE IF EXISTS ${name}`);
  await root.query(`CREATE DATABASE ${name}`);
  const u = new URL(PG_URL);
  u.pathname = `/${name}`;
  const adminUrl = u.toString();
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

async function seed(e: Engine) {
  await e.admin(`INSERT INTO countries (id, name, iso2, iso3, phone_code, currency_code, currency_name, currency_symbol, flag_emoji, country_flag)
                 VALUES ('${NIGERIA}', 'Nigeria', 'NG', 'NGA', '234', 'NGN', 'Naira', 'N', '', '') ON CONFLICT DO NOTHING`);
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
  return { tenantId, userId: u!.id, regionId: r!.id };
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function benchEngine(kind: 'pglite' | 'postgres', file: Buffer) {
  process.stdout.write(`\n== ${kind}: bulk upload of ${ROWS} farmers with farms (file ${(file.length / 1048576).toFixed(2)} MB) ==\n`);
  const e = await openEngine(kind);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'farmland-bulk-bench-'));
  try {
    const s = await seed(e);
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
    // A running API keeps parse workers started ahead (analyses.routes.ts, onReady); so does the benchmark.
    prewarmParseWorker();
    await new Promise((resolve) => setTimeout(resolve, 1000));

    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    const t0 = performance.now();
    const result = await bulkUploadFarmers(deps, ctx, { filename: 'bench.csv', data: file });
    const uploadMs = performance.now() - t0;
    loop.disable();
    const [counts] = (await e.admin(
      `SELECT (SELECT count(*)::int FROM farmers) AS farmers, (SELECT count(*)::int FROM farms) AS farms, (SELECT count(*)::int FROM farms WHERE is_overlapping) AS overlapping`,
    )) as Array<{
      farmers: number;
      farms: number;
      overlapping: number;
    }>;
    process.stdout.write(
      `  upload ${(uploadMs / 1000).toFixed(2)} s: ${result.created_count} created, ${result.failed_count} failed; stored ${counts!.farmers} farmers, ${counts!.farms} farms (${counts!.overlapping} overlapping); longest event-loop block ${(loop.max / 1e6).toFixed(0)} ms\n`,
    );

    // Grow the tenant to FARMERS farmers (half of them with a farm row each is not needed for the list: farm counts come from the uploaded ones).
    const extra = Math.max(0, FARMERS - counts!.farmers);
    for (let i = 0; i < extra; i += 50_000) {
      const n = Math.min(50_000, extra - i);
      await e.admin(
        `INSERT INTO farmers (tenant_id, first_name, last_name, folio_id, phone_number, region_id, country_id, created_at)
         SELECT $1, 'Grown', 'Farmer ' || g, 'GROWN-' || ($2::int + g), '+234' || (7000000000 + g), CASE WHEN g % 3 = 0 THEN $3::uuid END, '${NIGERIA}', now() - (g || ' seconds')::interval
           FROM generate_series(1, $4::int) g`,
        [s.tenantId, i, s.regionId, n],
      );
    }
    await e.admin(
      `INSERT INTO users (tenant_id, role, email, first_name, last_name) SELECT $1, 'agent', 'agent' || g || '@example.com', 'Agent', 'No ' || g FROM generate_series(1, 200) g`,
      [s.tenantId],
    );
    await e.admin(
      `UPDATE farmers SET created_by = (SELECT id FROM users WHERE email = 'agent' || (1 + abs(hashtext(farmers.id::text)) % 200) || '@example.com') WHERE tenant_id = $1`,
      [s.tenantId],
    );
    await e.admin('ANALYZE');
    const queries: Array<[string, () => Promise<unknown>]> = [
      ['farmers page 1', () => listFarmers(deps, ctx, { page: 1, page_size: 10, search: undefined, is_mapped: undefined, region: undefined }, '/api/farmers/')],
      [
        'farmers page 50',
        () => listFarmers(deps, ctx, { page: 50, page_size: 10, search: undefined, is_mapped: undefined, region: undefined }, '/api/farmers/'),
      ],
      [
        'farmers search',
        () => listFarmers(deps, ctx, { page: 1, page_size: 10, search: 'Farmer 4242', is_mapped: undefined, region: undefined }, '/api/farmers/'),
      ],
      [
        'farmers search folio id',
        () => listFarmers(deps, ctx, { page: 1, page_size: 10, search: 'GROWN-4242', is_mapped: undefined, region: undefined }, '/api/farmers/'),
      ],
      [
        'farmers search phone',
        () => listFarmers(deps, ctx, { page: 1, page_size: 10, search: '7000004242', is_mapped: undefined, region: undefined }, '/api/farmers/'),
      ],
      [
        'farmers search email',
        () => listFarmers(deps, ctx, { page: 1, page_size: 10, search: 'f4242@example', is_mapped: undefined, region: undefined }, '/api/farmers/'),
      ],
      [
        'farmers is_mapped=true',
        () => listFarmers(deps, ctx, { page: 1, page_size: 10, search: undefined, is_mapped: true, region: undefined }, '/api/farmers/'),
      ],
      [
        'farmers is_mapped=false',
        () => listFarmers(deps, ctx, { page: 1, page_size: 10, search: undefined, is_mapped: false, region: undefined }, '/api/farmers/'),
      ],
      [
        'farmers region',
        () => listFarmers(deps, ctx, { page: 1, page_size: 10, search: undefined, is_mapped: undefined, region: s.regionId }, '/api/farmers/'),
      ],
      [
        'agents search',
        () =>
          listAgents(
            deps,
            ctx,
            { page: 1, page_size: 10, search: 'Agent No 42', region: undefined, operational_area: undefined, tenant_id: undefined },
            '/api/accounts/agents/',
          ),
      ],
      [
        'agents page 1',
        () =>
          listAgents(
            deps,
            ctx,
            { page: 1, page_size: 10, search: undefined, region: undefined, operational_area: undefined, tenant_id: undefined },
            '/api/accounts/agents/',
          ),
      ],
    ];
    const lists: Record<string, { p50: number; p95: number }> = {};
    for (const [name, run] of queries) {
      await run();
      const times: number[] = [];
      for (let i = 0; i < Math.max(10, Math.round(REQUESTS / queries.length)); i++) {
        const q0 = performance.now();
        await run();
        times.push(performance.now() - q0);
      }
      times.sort((a, b) => a - b);
      lists[name] = { p50: pct(times, 50), p95: pct(times, 95) };
      process.stdout.write(`  ${name.padEnd(24)} with ${FARMERS} farmers: p50 ${pct(times, 50).toFixed(1)} ms, p95 ${pct(times, 95).toFixed(1)} ms\n`);
    }
    return { kind, uploadMs, loopMs: loop.max / 1e6, worstP95: Math.max(...Object.values(lists).map((l) => l.p95)) };
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
    await e.close();
  }
}

async function main() {
  const file = farmersCsv(ROWS);
  const results = [];
  for (const kind of ENGINES) results.push(await benchEngine(kind, file));
  process.stdout.write('\nsummary:\n');
  for (const r of results) {
    process.stdout.write(
      `  ${r.kind.padEnd(8)} upload of ${ROWS} farmers with farms ${(r.uploadMs / 1000).toFixed(2)} s (target ${r.kind === 'postgres' ? 5 : 10} s)  longest loop block ${r.loopMs.toFixed(0)} ms (target 100)  worst list p95 with ${FARMERS} farmers ${r.worstP95.toFixed(1)} ms (target 50)\n`,
    );
  }
  process.exit(0);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
