// Several machines (issue 15 §4): two API processes (the built server, ANALYSIS_WORKERS=off) and one `npm run worker`
// on one PostgreSQL database, with files on an S3-protocol server (s3rver). A session made on one API process works on
// the other; an analysis uploaded to one is completed by the separate worker; its source file and an export download
// from either process. Each process has its own data directory, so nothing can pass through a local disk. The second
// API process runs as a cluster of two (API_PROCESSES=2): its primary replaces an API process that dies.
// PostgreSQL only: the embedded database is one process by design. Needs the build (`npm run build`; CI builds first).
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { Secret, TOTP } from 'otpauth';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../seed/seed-demo.js';
import { s3Client } from '../lib/storage-s3.js';
import { PG_TEST_ROLE, pgTemplateName, withDatabase } from './engine.js';
import { startS3Server, type S3TestServer } from './s3-server.js';

const pgUrl = process.env['TEST_DATABASE_URL'];
const root = path.resolve(import.meta.dirname, '../../../..');
const BUCKET = 'several-machines';

type Proc = { name: string; child: ChildProcess; output: string[] };

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

describe.skipIf(!pgUrl)('several machines: two API processes and a worker on one PostgreSQL and S3 (PostgreSQL only)', () => {
  const procs: Proc[] = [];
  const dirs: string[] = [];
  const run = crypto.randomBytes(3).toString('hex');
  // The global teardown drops this run's farmland_t_<run>_* databases too, should this file's own cleanup not run.
  const dbName = `farmland_t_${process.env['FARMLAND_TEST_RUN'] ?? 'x'}_machines_${run}`;
  let s3: S3TestServer | null = null;
  let api: string[] = [];
  let baseEnv: Record<string, string> = {};

  /** Each process in its own process group, so that stopping it also stops what it started (npm runs node). */
  const start = (name: string, command: string, args: string[], env: Record<string, string>): Proc => {
    const child = spawn(command, args, { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const p: Proc = { name, child, output: [] };
    const keep = (b: Buffer) => {
      p.output.push(b.toString());
      if (p.output.length > 400) p.output.splice(0, 100);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    procs.push(p);
    return p;
  };
  const ended = (p: Proc) => p.child.exitCode !== null || p.child.signalCode !== null;
  const kill = (p: Proc, signal: NodeJS.Signals) => {
    if (!p.child.pid) return;
    try {
      process.kill(-p.child.pid, signal);
    } catch {
      // the group is gone
    }
  };
  // Should the test process end without its hooks (a crash, a timeout kill), the children go with it.
  const killAll = () => procs.forEach((p) => kill(p, 'SIGKILL'));
  process.once('exit', killAll);

  const waitFor = async (p: Proc, ready: () => Promise<boolean>, what: string, ms = 60_000) => {
    for (const end = Date.now() + ms; Date.now() < end;) {
      if (ended(p)) throw new Error(`${p.name} exited (${p.child.exitCode ?? p.child.signalCode}) before ${what}:\n${p.output.join('').slice(-3000)}`);
      if (await ready().catch(() => false)) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`${p.name}: no ${what} within ${ms / 1000} s:\n${p.output.join('').slice(-3000)}`);
  };
  const healthy = (url: string) => async () => (await fetch(`${url}/api/health`)).ok;

  const apiProcess = async (name: string, seed: boolean, env: Record<string, string> = {}) => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `farmland-${name}-`));
    dirs.push(dataDir);
    const p = start(name, process.execPath, ['apps/api/dist/server.js'], {
      ...baseEnv,
      PORT: String(port),
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      SEED_DEMO: seed ? 'true' : 'false',
      ...env,
    });
    return { p, url };
  };
  /** The pids of a process's children (a cluster primary's API processes), from /proc. */
  const childPids = (pid: number): number[] => {
    try {
      return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  };

  beforeAll(async () => {
    if (!fs.existsSync(path.join(root, 'apps/api/dist/server.js')) || !fs.existsSync(path.join(root, 'apps/api/dist/worker.js'))) {
      throw new Error('apps/api/dist is missing: run `npm run build` first');
    }
    const fp = process.env['FARMLAND_TEST_FP'];
    if (!fp) throw new Error('FARMLAND_TEST_FP is not set: run the tests through vitest');
    s3 = await startS3Server([BUCKET]);
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName} TEMPLATE ${pgTemplateName(fp)}`);
    await admin.end();
    // A minimal environment: nothing of the test runner's own (TEST_DATABASE_URL, PAYLOAD_ENCRYPTION=required in the
    // browser suite's settings) leaks into the processes.
    baseEnv = {
      PATH: process.env['PATH'] ?? '',
      HOME: process.env['HOME'] ?? os.tmpdir(),
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      APP_SECRET: crypto.randomBytes(32).toString('hex'),
      DATABASE_URL: withDatabase(pgUrl!, dbName, PG_TEST_ROLE),
      DATABASE_ADMIN_URL: withDatabase(pgUrl!, dbName),
      DATABASE_POOL_SIZE: '4',
      ANALYSIS_WORKERS: 'off',
      // The worker-killed test waits for the recovery sweep: a run is taken for dead after 15 s without a heartbeat.
      ANALYSIS_STALE_RUN_SECONDS: '15',
      UPLOAD_LIMIT_BYTES: String(16 * 1024 * 1024),
      PAYLOAD_ENCRYPTION: 'optional',
      LOG_LEVEL: 'info',
      ...s3.env(BUCKET),
    };
    // The first process seeds the demo; the others start on the seeded database.
    const one = await apiProcess('api-1', true);
    await waitFor(one.p, healthy(one.url), 'health answer');
    const two = await apiProcess('api-2', false, { API_PROCESSES: '2' });
    const workerDir = fs.mkdtempSync(path.join(os.tmpdir(), 'farmland-worker-'));
    dirs.push(workerDir);
    const worker = start('worker', 'npm', ['run', '--silent', 'worker'], { ...baseEnv, DATA_DIR: workerDir });
    await waitFor(two.p, healthy(two.url), 'health answer');
    await waitFor(worker, async () => worker.output.join('').includes('worker started'), '"worker started" line');
    api = [one.url, two.url];
  }, 120_000);

  afterAll(async () => {
    // SIGTERM (graceful), then SIGKILL whatever is left after 5 s.
    await Promise.all(
      procs.map(
        (p) =>
          new Promise<void>((resolve) => {
            if (ended(p)) return resolve();
            const t = setTimeout(resolve, 5_000);
            p.child.once('exit', () => {
              clearTimeout(t);
              resolve();
            });
            kill(p, 'SIGTERM');
          }),
      ),
    );
    killAll();
    process.removeListener('exit', killAll);
    if (pgUrl) {
      const admin = new pg.Client({ connectionString: pgUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
      await admin.end();
    }
    await s3?.close();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  }, 30_000);

  const shared: { access: string; areaIds: string[] } = { access: '', areaIds: [] };

  const call = async (base: string, method: string, url: string, opts: { token?: string; json?: unknown; body?: FormData } = {}) => {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: { ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}), ...(opts.json !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(opts.json !== undefined ? { body: JSON.stringify(opts.json) } : opts.body ? { body: opts.body } : {}),
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    const json = (res.headers.get('content-type') ?? '').includes('application/json') ? JSON.parse(bytes.toString()) : null;
    return { status: res.status, json, bytes, contentType: res.headers.get('content-type') };
  };

  it('shares sessions, the queue and the files across the processes', async () => {
    const [one, two] = api as [string, string];
    // Sign in on process 1 (two-factor enrolment included).
    const login = await call(one, 'POST', '/api/auth/login/', { json: { email: DEMO_ACCOUNTS.adminA, password: DEMO_PASSWORD } });
    expect(login.status, JSON.stringify(login.json)).toBe(200);
    const { mfa_token, user_token } = login.json.data;
    const setup = await call(one, 'POST', '/api/auth/setup-mfa/', { json: { mfa_token, user_token } });
    expect(setup.status, JSON.stringify(setup.json)).toBe(200);
    const code = new TOTP({ secret: Secret.fromBase32(setup.json.data.secret), digits: 6, period: 30 }).generate();
    const session = await call(one, 'POST', '/api/auth/confirm-mfa/', { json: { mfa_token, user_token, code } });
    expect(session.status, JSON.stringify(session.json)).toBe(200);

    // The session works on process 2, and process 2 rotates its refresh token; the new access token works on process 1.
    const areas = await call(two, 'GET', '/api/operational-areas/?page_size=100', { token: session.json.data.access });
    expect(areas.status, JSON.stringify(areas.json)).toBe(200);
    const areaIds = (areas.json.data.results as Array<{ id: string }>).map((a) => a.id);
    expect(areaIds.length).toBeGreaterThan(0);
    const refreshed = await call(two, 'POST', '/api/auth/token/refresh/', { json: { refresh: session.json.data.refresh } });
    expect(refreshed.status, JSON.stringify(refreshed.json)).toBe(200);
    const token = refreshed.json.data.access as string;
    expect((await call(one, 'GET', '/api/operational-areas/', { token })).status).toBe(200);
    // The rotation is known to every process: the old token presented on process 1 within the reuse interval (an aborted
    // load) gets the very successor process 2 made (after the interval it would end the session: auth.test.ts).
    const within = await call(one, 'POST', '/api/auth/token/refresh/', { json: { refresh: session.json.data.refresh } });
    expect(within.status, JSON.stringify(within.json)).toBe(200);
    expect(within.json.data.refresh).toBe(refreshed.json.data.refresh);
    // Sign in again, on process 2 this time (two-factor is enrolled now).
    const again = await call(two, 'POST', '/api/auth/login/', { json: { email: DEMO_ACCOUNTS.adminA, password: DEMO_PASSWORD } });
    expect(again.status, JSON.stringify(again.json)).toBe(200);
    const totp = new TOTP({ secret: Secret.fromBase32(setup.json.data.secret), digits: 6, period: 30 });
    // Each code is accepted once: take the next step's code (the API accepts one step either side).
    const next = totp.generate({ timestamp: Date.now() + 30_000 });
    const session2 = await call(two, 'POST', '/api/auth/login/confirm', {
      json: { mfa_token: again.json.data.mfa_token, user_token: again.json.data.user_token, code: next },
    });
    expect(session2.status, JSON.stringify(session2.json)).toBe(200);
    const access = session2.json.data.access as string;
    shared.access = access;
    shared.areaIds = areaIds;

    // Upload to process 2: the API processes run no analyses (ANALYSIS_WORKERS=off), so only the worker can complete it.
    const ring = (x: number, y: number) => [
      [x, y],
      [x + 0.001, y],
      [x + 0.001, y + 0.001],
      [x, y + 0.001],
      [x, y],
    ];
    const csv = Buffer.from(
      [
        'farm_name,farm_coordinates,ref',
        ...Array.from({ length: 40 }, (_, i) => `Farm ${i},"${JSON.stringify(ring(3.9 + i * 0.002, 7.4)).replace(/"/g, '""')}",R${i}`),
      ].join('\n'),
    );
    const form = new FormData();
    form.append('name', `Several machines ${run}`);
    for (const id of areaIds) form.append('operational_areas', id);
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'farms.csv');
    const created = await call(two, 'POST', '/api/custom-analysis/', { token: access, body: form });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const id = created.json.data.id as string;

    // Followed on process 1 until the worker has completed it.
    let detail: Record<string, any> = created.json.data;
    for (const end = Date.now() + 45_000; Date.now() < end && (detail['status'] === 'queued' || detail['status'] === 'processing');) {
      await new Promise((r) => setTimeout(r, 250));
      detail = (await call(one, 'GET', `/api/custom-analysis/${id}/`, { token: access })).json.data;
    }
    expect(detail['status'], JSON.stringify(detail)).toBe('completed');
    expect(detail['total_uploaded_data_count']).toBe(40);
    // The worker logs it just after the status is written: wait for the line.
    const worker = procs.find((p) => p.name === 'worker')!;
    const finished = new RegExp(`"analysisId":"${id}"[^\\n]*"custom analysis finished"`);
    await waitFor(worker, async () => finished.test(worker.output.join('')), `"custom analysis finished" line for ${id}`, 10_000);
    for (const p of procs.filter((x) => x.name.startsWith('api'))) expect(p.output.join('')).not.toMatch(/custom analysis finished/);
    for (const p of procs) expect(p.output.join(''), p.name).toMatch(/storage: S3 bucket answers/);

    // The source file is in the bucket, and downloads from either process (each has its own empty data directory).
    const objects = (await s3Client(s3!.config(BUCKET)).send(new ListObjectsV2Command({ Bucket: BUCKET }))).Contents ?? [];
    expect(objects.some((o) => /\/analysis_source\/.+\.csv$/.test(o.Key!))).toBe(true);
    const fileUrl = new URL(detail['file'] as string);
    for (const base of api) {
      const file = await call(base, 'GET', `${fileUrl.pathname}${fileUrl.search}`);
      expect(file.status).toBe(200);
      expect(file.bytes.equals(csv)).toBe(true);
      // Every row is inside one of the chosen areas or outside them all: the two exports hold the 40 rows between them.
      let rows = 0;
      for (const category of ['within', 'outside']) {
        const exported = await call(base, 'GET', `/api/custom-analysis/${id}/export/?category=${category}&format=csv`, { token: access });
        expect(exported.status, exported.bytes.toString().slice(0, 300)).toBe(200);
        expect(exported.contentType).toMatch(/text\/csv/);
        rows += exported.bytes.toString().trim().split('\n').length - 1;
      }
      expect(rows).toBe(40);
    }
    for (const d of dirs) expect(fs.existsSync(path.join(d, 'files'))).toBe(false);
  }, 90_000);

  it('a cluster (API_PROCESSES=2) keeps answering while one of its API processes is killed, and replaces it', async () => {
    const two = api[1]!;
    const primary = procs.find((p) => p.name === 'api-2')!;
    const pids = childPids(primary.child.pid!);
    expect(pids, 'the primary forked two API processes').toHaveLength(2);
    // Answers keep coming while one API process is killed (SIGKILL: no graceful stop) and replaced.
    const token = shared.access;
    expect(token, 'the first test signs in').not.toBe('');
    process.kill(pids[0]!, 'SIGKILL');
    let replaced: number[] = [];
    let answered = 0;
    let dropped = 0;
    for (const end = Date.now() + 30_000; Date.now() < end;) {
      try {
        const res = await call(two, 'GET', '/api/farmers/?page_size=5', { token });
        expect(res.status).toBe(200);
        answered++;
      } catch (err) {
        // Only a kept-alive connection of the killed process can fail (at the socket); every answer is a 200.
        if (!(err instanceof TypeError)) throw err;
        dropped++;
      }
      replaced = childPids(primary.child.pid!);
      if (replaced.length === 2 && !replaced.includes(pids[0]!) && answered >= 20) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(dropped, "at most the killed process's kept-alive connections fail").toBeLessThanOrEqual(2);
    expect(replaced).toHaveLength(2);
    expect(replaced).not.toContain(pids[0]);
    expect(replaced).toContain(pids[1]);
    await waitFor(primary, healthy(two), 'health answer after the replacement');
    expect(primary.output.join('')).toContain('an API process died; starting another');
  }, 60_000);

  it('a worker killed mid-analysis leaves nothing half-written: the run is requeued and completes like a clean one', async () => {
    const [one, two] = api as [string, string];
    const { access, areaIds } = shared;
    expect(access, 'the first test signs in').not.toBe('');
    // 30,000 rows, enough for a run of several seconds; every 50th row overlaps its neighbour, some are invalid.
    const ring = (x: number, y: number, d: number) => [
      [x, y],
      [x + d, y],
      [x + d, y + d],
      [x, y + d],
      [x, y],
    ];
    const lines = ['farm_name,farm_coordinates'];
    for (let i = 0; i < 30_000; i++) {
      const x = 3.5 + (i % 300) * 0.004;
      const y = 7.0 + Math.floor(i / 300) * 0.004;
      const coords = i % 997 === 0 ? '[[1,2],[3,4]]' : JSON.stringify(ring(x, y, i % 50 === 0 ? 0.0055 : 0.002));
      lines.push(`Farm ${i},"${coords.replace(/"/g, '""')}"`);
    }
    const csv = Buffer.from(lines.join('\n'));
    const upload = async (base: string, name: string) => {
      const form = new FormData();
      form.append('name', `${name} ${run}`);
      for (const id of areaIds) form.append('operational_areas', id);
      form.append('file', new Blob([csv], { type: 'text/csv' }), 'farms.csv');
      const created = await call(base, 'POST', '/api/custom-analysis/', { token: access, body: form });
      expect(created.status, JSON.stringify(created.json)).toBe(201);
      return created.json.data.id as string;
    };
    const detailOf = async (base: string, id: string) =>
      (await call(base, 'GET', `/api/custom-analysis/${id}/`, { token: access })).json.data as Record<string, any>;
    const until = async (base: string, id: string, ms: number) => {
      let d = await detailOf(base, id);
      for (const end = Date.now() + ms; Date.now() < end && (d['status'] === 'queued' || d['status'] === 'processing');) {
        await new Promise((r) => setTimeout(r, 250));
        d = await detailOf(base, id);
      }
      return d;
    };

    const db = new pg.Client({ connectionString: withDatabase(pgUrl!, dbName) });
    await db.connect();
    try {
      const id = await upload(two, 'Killed worker');
      // Kill the worker (its whole process group, SIGKILL: no graceful stop) once it has written classified rows.
      const worker = procs.find((p) => p.name === 'worker')!;
      let written = 0;
      for (const end = Date.now() + 60_000; Date.now() < end && written === 0;) {
        const r = await db.query<{ status: string; n: string }>(
          `SELECT a.status, (SELECT count(*) FROM custom_analysis_rows r WHERE r.analysis_id = a.id) AS n FROM custom_analyses a WHERE a.id = $1`,
          [id],
        );
        expect(r.rows[0]!.status, 'the run must still be going when the worker is killed').not.toMatch(/completed|failed/);
        written = Number(r.rows[0]!.n);
        if (written === 0) await new Promise((res) => setTimeout(res, 20));
      }
      expect(written, 'the worker wrote rows before it was killed').toBeGreaterThan(0);
      kill(worker, 'SIGKILL');
      await new Promise<void>((res) => (ended(worker) ? res() : worker.child.once('exit', () => res())));

      // While nobody runs it: still processing, and readers see no rows of the interrupted run.
      const stopped = await detailOf(one, id);
      expect(stopped['status']).toBe('processing');
      for (const category of ['within', 'outside', 'errors']) {
        const listed = await call(one, 'GET', `/api/custom-analysis/${id}/${category}/`, { token: access });
        expect(listed.status).toBe(200);
        expect(listed.json.data.count).toBe(0);
        const exported = await call(one, 'GET', `/api/custom-analysis/${id}/export/?category=${category}&format=csv`, { token: access });
        expect(exported.status).toBe(200);
        expect(exported.bytes.toString().trim().split('\n')).toHaveLength(1); // the header only
      }

      // A new worker (another machine, say): the sweep takes the run for dead after 15 s and requeues it once.
      const workerDir = fs.mkdtempSync(path.join(os.tmpdir(), 'farmland-worker-'));
      dirs.push(workerDir);
      const worker2 = start('worker-2', 'npm', ['run', '--silent', 'worker'], { ...baseEnv, DATA_DIR: workerDir });
      await waitFor(worker2, async () => worker2.output.join('').includes('worker started'), '"worker started" line');
      const done = await until(one, id, 90_000);
      expect(done['status'], JSON.stringify(done)).toBe('completed');
      expect(worker2.output.join('')).toMatch(new RegExp(`"analysisId":"${id}"[^\\n]*requeued`));
      const state = await db.query<{ attempts: number; crashes: number; n: string; distinct_n: string }>(
        `SELECT a.attempts, a.crashes, count(r.*) AS n, count(DISTINCT r.row_number) AS distinct_n
           FROM custom_analyses a LEFT JOIN custom_analysis_rows r ON r.analysis_id = a.id WHERE a.id = $1 GROUP BY a.id`,
        [id],
      );
      expect(state.rows[0]).toMatchObject({ attempts: 2, crashes: 1, n: '30000', distinct_n: '30000' });

      // The same file analysed by a run nobody interrupts gives the same figures.
      const clean = await until(two, await upload(one, 'Clean run'), 90_000);
      expect(clean['status']).toBe('completed');
      const categories = ['within_operational_area', 'outside_operational_area', 'overlapping_farmlands', 'unrecognized_farmlands', 'errors'];
      for (const key of categories) expect(done[key].count, key).toBe(clean[key].count);
      expect(done['total_uploaded_data_count']).toBe(30_000);
      expect(clean['total_uploaded_data_count']).toBe(30_000);
      expect(done['errors'].count).toBe(31); // rows 0, 997, … 29,910: a line is no polygon
      expect(done['overlapping_farmlands'].count).toBeGreaterThan(0);
      expect(done['within_operational_area'].count + done['outside_operational_area'].count + done['errors'].count).toBe(30_000);
      // The total area is a floating-point sum whose order may differ between runs.
      expect(done['total_area']).toBeCloseTo(clean['total_area'], 2);
      // Row by row: each category's export of the interrupted analysis is the clean run's.
      for (const category of ['within', 'outside', 'overlapping', 'errors']) {
        const a = await call(one, 'GET', `/api/custom-analysis/${done['id']}/export/?category=${category}&format=csv`, { token: access });
        const b = await call(two, 'GET', `/api/custom-analysis/${clean['id']}/export/?category=${category}&format=csv`, { token: access });
        expect(a.status).toBe(200);
        expect(a.bytes.toString(), category).toBe(b.bytes.toString());
      }
    } finally {
      await db.end();
    }
  }, 240_000);
});
