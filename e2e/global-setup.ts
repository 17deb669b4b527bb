// Starts the built app once for the whole browser suite: `node apps/api/dist/server.js` on port 3300 (E2E_PORT) with
// a fresh temporary DATA_DIR (so demo data is seeded anew and every account enrols two-factor), waits for /api/health,
// and stops it afterwards. Builds first when the build is missing or stale.
import { execSync, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
    appSecret: string;
  }
}

const root = path.resolve(import.meta.dirname, '..');

async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode} before it was ready`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the server did not answer ${url}/api/health within ${timeoutMs / 1000} s`);
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (process.env['E2E_SKIP_BUILD'] !== '1') execSync('node scripts/build.mjs --if-needed', { cwd: root, stdio: 'inherit' });
  for (const f of ['apps/api/dist/server.js', 'apps/web/dist/index.html']) {
    if (!fs.existsSync(path.join(root, f))) throw new Error(`${f} is missing: run npm run build`);
  }
  fs.mkdirSync(path.join(root, 'e2e/artifacts'), { recursive: true });

  const port = Number(process.env['E2E_PORT'] ?? 3300);
  const baseUrl = `http://localhost:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'farmland-e2e-'));
  const appSecret = crypto.randomBytes(32).toString('hex');
  const log = fs.openSync(path.join(root, 'e2e/artifacts/server.log'), 'w');
  const server = spawn(process.execPath, ['apps/api/dist/server.js'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseUrl,
      DATA_DIR: dataDir,
      APP_SECRET: appSecret,
      COOKIE_SECURE: 'true',
      // info: one access line per request in e2e/artifacts/server.log (tokens and signed links redacted), to read after a failure.
      LOG_LEVEL: process.env['E2E_LOG_LEVEL'] ?? 'info',
      // The console encrypts every JSON body and decrypts every answer; the suite proves it with encryption required.
      PAYLOAD_ENCRYPTION: process.env['E2E_PAYLOAD_ENCRYPTION'] ?? 'required',
      // The operator's webhook allow-list admits a receiver on this machine (e2e/webhooks.e2e.ts).
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    },
    stdio: ['ignore', log, log],
  });
  const started = Date.now();
  // E2E_START_TIMEOUT_S: a loaded machine (other builds and suites on 2 cores) can need longer than the default.
  try {
    await waitForHealth(baseUrl, server, Number(process.env['E2E_START_TIMEOUT_S'] ?? 180) * 1000);
  } catch (err) {
    // No teardown is registered when setup fails: stop the server here, or it keeps the port (and a later run would
    // talk to it, with another data directory and secret).
    server.kill('SIGKILL');
    throw err;
  }
  process.stdout.write(`e2e: app ready on ${baseUrl} in ${((Date.now() - started) / 1000).toFixed(1)} s (data ${dataDir})\n`);

  project.provide('baseUrl', baseUrl);
  project.provide('dataDir', dataDir);
  project.provide('appSecret', appSecret);

  return async () => {
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise<void>((resolve) => {
        const t = setTimeout(() => {
          server.kill('SIGKILL');
          resolve();
        }, 15_000);
        server.once('exit', () => {
          clearTimeout(t);
          resolve();
        });
      });
    }
    fs.closeSync(log);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
