// Durability of the embedded database (issue 17 §5): a server of its own (fresh DATA_DIR) takes a stream of farmer
// creations from 8 concurrent clients; it is killed with SIGKILL while requests are in flight, started again on the
// same directory, and every creation it acknowledged (201) must be there. Then a backup made by `db:backup` from the
// running server, restored by `db:restore` after a later change, brings the database back to the backup's state.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Secret, TOTP } from 'otpauth';
import { afterAll, describe, expect, it } from 'vitest';
import { ACCOUNTS, DEMO_PASSWORD } from './support/app';

const root = path.resolve(import.meta.dirname, '..');
const port = Number(process.env['E2E_PORT'] ?? 3300) + 50;
const baseUrl = `http://127.0.0.1:${port}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'farmland-durability-'));
const env = {
  ...process.env,
  NODE_ENV: 'production',
  PORT: String(port),
  HOST: '127.0.0.1',
  PUBLIC_URL: baseUrl,
  DATA_DIR: dataDir,
  APP_SECRET: crypto.randomBytes(32).toString('hex'),
  LOG_LEVEL: 'warn',
  PAYLOAD_ENCRYPTION: 'optional',
};
let server: ChildProcess | null = null;
const log = fs.openSync(path.join(root, 'e2e/artifacts/durability-server.log'), 'w');

async function start(): Promise<number> {
  const t0 = Date.now();
  server = spawn(process.execPath, ['apps/api/dist/server.js'], { cwd: root, env, stdio: ['ignore', log, log] });
  const child = server;
  while (Date.now() - t0 < 240_000) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/api/health`)).ok) return Date.now() - t0;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('the server did not start within 240 s');
}

async function stop(signal: NodeJS.Signals): Promise<void> {
  const child = server;
  if (!child || child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
  server = null;
}

async function post<T = any>(url: string, body: unknown, token?: string): Promise<{ status: number; body: T }> {
  const res = await fetch(`${baseUrl}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T };
}

let secret: string | null = null;
let lastStep = 0;
/**
 * The access token of the last sign-in: the restore test reuses it (its session was stored before the backup), since each
 * sign-in past the second must wait for a new two-factor step (up to 30 s each).
 */
let lastToken: string | null = null;
/** Signs in over HTTP: enrols two-factor the first time, then uses a code of a step not used before. */
async function signIn(): Promise<string> {
  const login = await post('/api/auth/login/', { email: ACCOUNTS.adminA, password: DEMO_PASSWORD });
  expect(login.status).toBe(200);
  const { mfa_token, user_token, mfa_setup_required } = login.body.data;
  if (mfa_setup_required) secret = (await post('/api/auth/setup-mfa/', { mfa_token, user_token })).body.data.secret;
  const totp = new TOTP({ secret: Secret.fromBase32(secret!), digits: 6, period: 30 });
  // The API accepts one step either side, each step once: take the next unused one, waiting until it is in the window.
  const step = Math.max(Math.floor(Date.now() / 30_000), lastStep + 1);
  while (step > Math.floor(Date.now() / 30_000) + 1) await new Promise((r) => setTimeout(r, 500));
  lastStep = step;
  const code = totp.generate({ timestamp: step * 30_000 });
  const done = await post(mfa_setup_required ? '/api/auth/confirm-mfa/' : '/api/auth/login/confirm', { mfa_token, user_token, code });
  expect(done.status).toBe(200);
  lastToken = done.body.data.access as string;
  return lastToken;
}

afterAll(async () => {
  await stop('SIGKILL');
  fs.closeSync(log);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the embedded database under kill -9', () => {
  const acknowledged: string[] = [];

  it('keeps every acknowledged write, and opens cleanly', async () => {
    const firstStart = await start();
    let token = await signIn();
    let stopped = false;
    let attempts = 0;
    const run = `k${Date.now().toString(36)}`;
    const client = async (n: number) => {
      for (let i = 0; !stopped; i++) {
        attempts++;
        try {
          const res = await post('/api/farmers/', { first_name: 'Durable', last_name: `C${n}-${i}`, folio_id: `${run}-${n}-${i}` }, token);
          if (res.status === 201) acknowledged.push(res.body.data.id as string);
          else if (!stopped) throw new Error(`a creation answered ${res.status}: ${JSON.stringify(res.body)}`);
        } catch (err) {
          if (!stopped) throw err;
        }
      }
    };
    const clients = Array.from({ length: 8 }, (_, n) => client(n));
    // Kill once a good stream has been acknowledged, with requests in flight.
    const deadline = Date.now() + 120_000;
    while (acknowledged.length < 200 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    stopped = true;
    await stop('SIGKILL');
    await Promise.allSettled(clients);
    expect(acknowledged.length).toBeGreaterThanOrEqual(200);

    const restart = await start();
    token = await signIn();
    const missing: string[] = [];
    for (const id of acknowledged) {
      const res = await fetch(`${baseUrl}/api/farmers/${id}/`, { headers: { authorization: `Bearer ${token}` } });
      if (res.status !== 200) missing.push(`${id}: ${res.status}`);
    }
    expect(missing).toEqual([]);
    // It takes writes again.
    expect((await post('/api/farmers/', { first_name: 'After', last_name: 'Restart' }, token)).status).toBe(201);
    process.stdout.write(
      `durability: ${acknowledged.length} acknowledged of ${attempts} attempted, all present after kill -9; first start ${(firstStart / 1000).toFixed(1)} s, restart ${(restart / 1000).toFixed(1)} s\n`,
    );
  }, 600_000);

  it('restores a backup taken from the running server', async () => {
    const token = lastToken ?? (await signIn());
    const backupFile = path.join(dataDir, 'backups', 'before-change.tar.gz');
    execFileSync(process.execPath, ['apps/api/dist/bin/db-backup.js', '--out', backupFile], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    expect(fs.statSync(backupFile).size).toBeGreaterThan(0);
    const later = await post('/api/farmers/', { first_name: 'After', last_name: 'Backup' }, token);
    expect(later.status).toBe(201);
    // A restore refuses to run under a live server.
    expect(() =>
      execFileSync(process.execPath, ['apps/api/dist/bin/db-restore.js', backupFile], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] }),
    ).toThrow();
    await stop('SIGTERM');
    execFileSync(process.execPath, ['apps/api/dist/bin/db-restore.js', backupFile], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    await start();
    // The session of that token was stored before the backup: the token still works after the restore.
    const again = token;
    const read = async (id: string) => (await fetch(`${baseUrl}/api/farmers/${id}/`, { headers: { authorization: `Bearer ${again}` } })).status;
    expect(await read(later.body.data.id as string)).toBe(404);
    expect(await read(acknowledged[0]!)).toBe(200);
    expect(fs.readdirSync(dataDir).some((f) => f.startsWith('pglite.before-restore-'))).toBe(true);
  }, 600_000);
});
