// The worker's own port (WORKER_HEALTH_PORT, ops-app.ts): liveness, readiness and metrics served apart from the API, on
// both engines in-process; and on PostgreSQL the worker entry itself (src/worker.ts, run through tsx) started on a port,
// read over HTTP, and stopped with SIGTERM.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpsApp } from './ops-app.js';
import { PG_TEST_ROLE, pgTemplateName, withDatabase } from './test/engine.js';
import { testEnv, type TestEnv } from './test/harness.js';

let env: TestEnv;
beforeAll(async () => {
  env = await testEnv();
});

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

describe('the worker health port (in-process)', () => {
  it('serves liveness, readiness and metrics, and nothing else', async () => {
    const app = await buildOpsApp(env.deps);
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const health = await fetch(`${address}/api/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: 'ok', database: 'ok', engine: env.engine });
      for (const p of ['/api/ready', '/api/health/ready']) {
        const ready = await fetch(`${address}${p}`);
        expect(ready.status, p).toBe(200);
        expect(((await ready.json()) as { checks: unknown }).checks).toMatchObject({ database: 'ok', migrations: 'ok', storage: 'ok' });
      }
      const metrics = await fetch(`${address}/api/metrics`);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toMatch(/^analysis_queue_depth\{state="queued"\} \d+$/m);
      const other = await fetch(`${address}/api/farms/`);
      expect(other.status).toBe(404);
      expect(await other.json()).toEqual({ code: 'not_found', message: 'Page not found.' });
    } finally {
      await app.close();
    }
  });
});

const pgUrl = process.env['TEST_DATABASE_URL'];
describe.skipIf(!pgUrl)('the worker entry with WORKER_HEALTH_PORT (PostgreSQL only: the worker needs it)', () => {
  const run = crypto.randomBytes(3).toString('hex');
  const dbName = `farmland_t_${process.env['FARMLAND_TEST_RUN'] ?? 'x'}_worker_${run}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'farmland-worker-port-'));
  let child: ChildProcess | null = null;
  const output: string[] = [];

  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  it('answers /api/ready and /api/metrics on its own port, and stops cleanly on SIGTERM', async () => {
    const fp = process.env['FARMLAND_TEST_FP'];
    if (!fp) throw new Error('FARMLAND_TEST_FP is not set: run the tests through vitest');
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName} TEMPLATE ${pgTemplateName(fp)}`);
    await admin.end();
    const port = await freePort();
    const apiDir = path.resolve(import.meta.dirname, '..');
    child = spawn(process.execPath, ['--import', 'tsx', 'src/worker.ts'], {
      cwd: apiDir,
      env: {
        PATH: process.env['PATH'] ?? '',
        HOME: process.env['HOME'] ?? os.tmpdir(),
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        APP_SECRET: crypto.randomBytes(32).toString('hex'),
        DATA_DIR: dataDir,
        DATABASE_URL: withDatabase(pgUrl!, dbName, PG_TEST_ROLE),
        DATABASE_ADMIN_URL: withDatabase(pgUrl!, dbName),
        DATABASE_POOL_SIZE: '2',
        WORKER_HEALTH_PORT: String(port),
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (b: Buffer) => output.push(b.toString()));
    child.stderr!.on('data', (b: Buffer) => output.push(b.toString()));
    const base = `http://127.0.0.1:${port}`;
    let ready: Response | null = null;
    for (const end = Date.now() + 90_000; Date.now() < end && ready?.status !== 200;) {
      if (child.exitCode !== null) throw new Error(`the worker exited (${child.exitCode}):\n${output.join('').slice(-3000)}`);
      ready = await fetch(`${base}/api/ready`).catch(() => null);
      if (ready?.status !== 200) await new Promise((r) => setTimeout(r, 250));
    }
    expect(ready?.status, output.join('').slice(-3000)).toBe(200);
    // The worker runs the analysis jobs, so its readiness includes the job runner.
    expect(await ready!.json()).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok', storage: 'ok', jobs: 'ok' } });
    const metrics = await fetch(`${base}/api/metrics`);
    expect(metrics.status).toBe(200);
    const text = await metrics.text();
    expect(text).toMatch(/^analysis_queue_depth\{state="queued"\} \d+$/m);
    expect(text).toMatch(/^db_pool_connections\{state="total"\} [1-9]/m);
    expect((await fetch(`${base}/api/farms/`)).status).toBe(404);
    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 120_000);
});
