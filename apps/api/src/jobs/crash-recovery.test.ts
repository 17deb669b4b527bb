// Issue 16, end to end on the engine of this run: the built server (as `npm start` runs it) is killed with SIGKILL in the
// middle of an analysis, started again on the same data, and the analysis must settle by itself, completed, within
// two minutes. Embedded: the restart's recovery sweep requeues at once (no other process can hold the data directory).
// PostgreSQL (TEST_DATABASE_URL): the run is taken for dead once its heartbeat is 45 s old, so within about a minute.
import { execSync, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Secret, TOTP } from 'otpauth';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../../..');
const pgUrl = process.env['TEST_DATABASE_URL'] || null;
const port = 21000 + (process.pid % 9000);
const base = `http://127.0.0.1:${port}`;

async function call(method: string, url: string, token: string | null, body?: unknown, headers: Record<string, string> = {}) {
  const buf = Buffer.isBuffer(body);
  const res = await fetch(`${base}${url}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined && !buf ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    ...(body !== undefined ? { body: buf ? body : JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as { data?: Record<string, never> & Record<string, unknown> }) : null };
}

describe(`kill -9 mid-analysis (${pgUrl ? 'PostgreSQL' : 'embedded'})`, () => {
  let env: NodeJS.ProcessEnv;
  let server: ChildProcess | null = null;
  let dataDir: string;
  let dbName: string | null = null;

  const start = async () => {
    const child = spawn(process.execPath, [path.join(root, 'apps/api/dist/server.js')], { cwd: root, env, stdio: 'ignore' });
    server = child;
    // A first start seeds the demo data: ~15 s on an idle machine, far longer beside the other test worker.
    for (const end = Date.now() + 300_000; Date.now() < end;) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
      if (
        await fetch(`${base}/api/health`)
          .then((r) => r.ok)
          .catch(() => false)
      )
        return child;
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error('the server did not become healthy');
  };

  beforeAll(async () => {
    execSync('node scripts/build.mjs --if-needed', { cwd: root, stdio: 'ignore' });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'farmland-crash-'));
    env = {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: base,
      DATA_DIR: dataDir,
      APP_SECRET: crypto.randomBytes(32).toString('hex'),
      LOG_LEVEL: 'silent',
      SEED_DEMO: 'true',
    };
    delete env['TEST_DATABASE_URL'];
    if (pgUrl) {
      dbName = `farmland_crash_${crypto.randomBytes(4).toString('hex')}`;
      const admin = new pg.Client({ connectionString: pgUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${dbName}`);
      await admin.end();
      const adminUrl = pgUrl.replace(/\/[^/?]*(\?.*)?$/, `/${dbName}`);
      execSync(`node apps/api/dist/bin/db-setup.js --admin-url ${adminUrl} --app-user farmland_crash_app`, { cwd: root, stdio: 'ignore', env });
      env['DATABASE_URL'] = adminUrl.replace(/\/\/([^@/]+)@/, '//farmland_crash_app@');
      env['DATABASE_ADMIN_URL'] = adminUrl;
    }
    await start();
  }, 420_000);

  afterAll(async () => {
    server?.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (dbName && pgUrl) {
      const admin = new pg.Client({ connectionString: pgUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
      await admin.end();
    }
  });

  it('settles the interrupted analysis by itself after a restart, completed, within two minutes', async () => {
    // Sign in (enrolling two-factor, as a first sign-in does).
    const login = await call('POST', '/api/auth/login/', null, { email: 'admin@oyo-agro.example', password: 'Farmland#2026' });
    expect(login.status).toBe(200);
    const { mfa_token, user_token } = login.body!.data as unknown as { mfa_token: string; user_token: string };
    const setup = await call('POST', '/api/auth/setup-mfa/', null, { mfa_token, user_token });
    const code = new TOTP({ secret: Secret.fromBase32((setup.body!.data as unknown as { secret: string }).secret), digits: 6, period: 30 }).generate();
    const confirm = await call('POST', '/api/auth/confirm-mfa/', null, { mfa_token, user_token, code });
    expect(confirm.status).toBe(200);
    const token = (confirm.body!.data as unknown as { access: string }).access;
    const areas = (
      (await call('GET', '/api/operational-areas/?page=1&page_size=100', token)).body!.data as unknown as { results: Array<{ id: string }> }
    ).results.map((a) => a.id);

    // 30,000 distinct triangles that all overlap one another: enough work to be interrupted in.
    const lines = ['farm_name,farm_coordinates,my_ref'];
    for (let i = 1; i <= 30_000; i++) lines.push(`K${i},"[[${(3.7 + (i % 500) * 0.0001).toFixed(4)},7.64],[3.78,7.64],[3.77,7.65]]",R${i}`);
    const boundary = `----crash${crypto.randomBytes(6).toString('hex')}`;
    const parts = [
      ...['Crash test', ...areas].map(
        (v, i) => `--${boundary}\r\nContent-Disposition: form-data; name="${i === 0 ? 'name' : 'operational_areas'}"\r\n\r\n${v}\r\n`,
      ),
      `--${boundary}\r\nContent-Disposition: form-data; name="require_farm_recognition"\r\n\r\nfalse\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="crash.csv"\r\nContent-Type: text/csv\r\n\r\n${lines.join('\n')}\r\n--${boundary}--\r\n`,
    ];
    const created = await call('POST', '/api/custom-analysis/', token, Buffer.from(parts.join('')), {
      'content-type': `multipart/form-data; boundary=${boundary}`,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = (created.body!.data as unknown as { id: string }).id;

    // Kill the server once the analysis is under way.
    let seen = 'queued';
    for (const end = Date.now() + 60_000; Date.now() < end && seen !== 'processing';) {
      seen = String(((await call('GET', `/api/custom-analysis/${id}/`, token)).body!.data as unknown as { status: string }).status);
      if (seen !== 'processing') await new Promise((r) => setTimeout(r, 20));
    }
    expect(seen).toBe('processing');
    server!.kill('SIGKILL');
    await new Promise((r) => server!.once('exit', r));
    const killedAt = Date.now();

    await start();
    let detail: Record<string, unknown> = {};
    for (const end = killedAt + 120_000; Date.now() < end;) {
      detail = (await call('GET', `/api/custom-analysis/${id}/`, token)).body!.data ?? {};
      if (detail['status'] === 'completed' || detail['status'] === 'failed') break;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(detail['status'], JSON.stringify(detail).slice(0, 400)).toBe('completed');
    expect(detail['total_uploaded_data_count']).toBe(30_000);
    expect((detail['overlapping_farmlands'] as { count: number }).count).toBe(30_000);
    expect((detail['errors'] as { count: number }).count).toBe(0);
  }, 600_000);
});
