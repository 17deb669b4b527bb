// `npm run bench:lists -- --engine pglite [--connections 50] [--seconds 5] [--port 3420]` (issue 15 §3, the embedded
// ceiling): the built server as `npm start` runs it (embedded PGlite on a fresh data directory, demo data seeded), the
// demo tenant admin signed in, and each list route driven by `connections` clients in a closed loop for `seconds`
// (after a one-second warm-up that is not counted). Prints req/s and p50/p95/p99 per route, against the target of
// >= 500 req/s with p95 <= 100 ms at 50 connections. Latencies are measured by the client over loopback. Each route also
// gets the server's CPU time per request by thread (from /proc, so a machine shared with other work skews it far less
// than req/s): the main thread, the busiest other thread (the embedded database's), and the rest (GC, compilers), then
// the PostgreSQL server's processes and the load generator's own (bench/http.ts, load()).
// `--data-from DIR` (embedded): start from a copy of that data directory (a server's, demo seeded, never signed in to)
// instead of an empty one: a warm start in seconds instead of the first start's migration and seed, which take minutes
// on a busy machine (the metrics on/off pairs of docs/decisions/0081-metrics-overhead.md).
// `--engine postgres [--db-prefix hp_lists]` runs the same load against a fresh PostgreSQL database (BENCH_DATABASE_URL,
// dropped at the end).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import pg from 'pg';
import { cpuText, load, root, signInEnrolling, startServer, stopServer, type Load } from './http.js';

const ROUTES = [
  '/api/health',
  '/api/farms/?page=1&page_size=10',
  '/api/farmers/?page=1&page_size=10',
  '/api/accounts/agents/?page=1&page_size=10',
  '/api/operational-areas/?page=1&page_size=10',
  '/api/custom-analysis/?page=1&page_size=10',
  '/api/activity-logs/?page=1&page_size=30',
  '/api/analytics/',
];

export async function benchEmbeddedLists(args: string[]): Promise<void> {
  const arg = (name: string, dflt: string) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 && args[i + 1] && !args[i + 1]!.startsWith('--') ? args[i + 1]! : dflt;
  };
  const engine = arg('engine', 'pglite');
  if (engine !== 'pglite' && engine !== 'postgres') throw new Error('--engine is pglite or postgres');
  const connections = Number(arg('connections', '50'));
  const seconds = Number(arg('seconds', '5'));
  const port = Number(arg('port', '3420'));
  const only = arg('route', '');
  if (!fs.existsSync(path.join(root, 'apps/api/dist/server.js'))) throw new Error('run npm run build first');

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'farmland-lists-embedded-'));
  const from = arg('data-from', '');
  if (from) fs.cpSync(from, dataDir, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    // Capacity under 50 connections is what is measured: no in-flight bound unless one is asked for.
    LOAD_SHED_MAX_IN_FLIGHT: process.env['LOAD_SHED_MAX_IN_FLIGHT'] ?? '0',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    APP_SECRET: crypto.randomBytes(32).toString('hex'),
    // --log-level info: the production default, with a log line per request (the benchmark's own default is warn).
    LOG_LEVEL: arg('log-level', 'warn'),
    SEED_DEMO: 'true',
    ANALYSIS_WORKERS: 'off',
  };
  let dropDb: (() => Promise<void>) | null = null;
  if (engine === 'postgres') {
    const pgUrl = process.env['BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
    // --db-prefix: the name's start (machines shared by several runs give each its own).
    const prefix = arg('db-prefix', 'hp_lists');
    if (!/^[a-z_][a-z0-9_]*$/.test(prefix)) throw new Error('--db-prefix: lower-case letters, digits and _ only');
    const dbName = `${prefix}_${crypto.randomBytes(3).toString('hex')}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    dropDb = async () => {
      const a = new pg.Client({ connectionString: pgUrl });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await a.end();
    };
    const adminUrl = pgUrl.replace(/\/[^/]*$/, `/${dbName}`);
    const setup = spawn(process.execPath, [path.join(root, 'apps/api/dist/bin/db-setup.js'), '--admin-url', adminUrl, '--app-user', 'farmland_lists'], {
      cwd: root,
      stdio: 'inherit',
      env,
    });
    await new Promise((r) => setup.on('exit', r));
    env['DATABASE_URL'] = adminUrl.replace('postgres@', 'farmland_lists@');
    env['DATABASE_ADMIN_URL'] = adminUrl;
  }
  // --cpu-prof DIR: the server's threads write V8 CPU profiles there when it stops (where a request's time goes).
  const profDir = arg('cpu-prof', '');
  const server = await startServer(env, { timeoutMs: 240_000, ...(profDir ? { execArgv: ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profDir)}`] } : {}) });
  try {
    const token = await signInEnrolling(server.base, 'admin@oyo-agro.example');
    console.log(
      `${engine}, demo data, tenant admin, METRICS=${process.env['METRICS'] ?? 'on'}; ${connections} connections, ${seconds} s per route after a 1 s warm-up; load average ${os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
    );
    const results: Load[] = [];
    for (const route of ROUTES.filter((r) => !only || r.includes(only))) {
      const r = await load(port, server.child.pid!, route, token, connections, seconds);
      results.push(r);
      console.log(
        `${route.padEnd(46)} ${r.rps.toFixed(0).padStart(5)} req/s  p50 ${r.p50.toFixed(1).padStart(6)}  p95 ${r.p95.toFixed(1).padStart(6)}  p99 ${r.p99.toFixed(1).padStart(6)} ms` +
          (r.cpu ? `  ${cpuText(r.cpu)}` : '') +
          (r.errors ? `  ${r.errors} non-200` : ''),
      );
    }
    const lists = results.filter((r) => r.route !== '/api/health');
    const under = lists.filter((r) => r.rps < 500 || r.p95 > 100);
    console.log(
      `load average after: ${os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}; ` +
        (under.length
          ? `under the target (>= 500 req/s, p95 <= 100 ms): ${under.map((r) => r.route).join(', ')}`
          : 'every list within the target (>= 500 req/s, p95 <= 100 ms)'),
    );
  } finally {
    await stopServer(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
    await dropDb?.();
  }
}
