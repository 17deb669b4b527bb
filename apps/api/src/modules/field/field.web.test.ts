// Serving the field app at /field (issue 31) from a fixture build: the page for app paths, the service worker with its
// scope header and no-cache, the manifest, the security headers the app needs (geolocation, workers), clean 404s.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.js';
import { testEnv, type TestEnv } from '../../test/harness.js';

let env: TestEnv;
const dirs: string[] = [];
const apps: FastifyInstance[] = [];

beforeAll(async () => {
  env = await testEnv();
});
afterAll(async () => {
  for (const a of apps) await a.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

async function appWith(files: Record<string, string>): Promise<FastifyInstance> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'field-dist-'));
  dirs.push(dir);
  for (const [name, body] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), body);
  }
  const app = await buildApp({ ...env.deps, config: { ...env.deps.config, webDistDir: dir } }, { serveWeb: true });
  await app.ready();
  apps.push(app);
  return app;
}

const FIELD_HTML = '<!doctype html><title>field fixture</title>';
const CONSOLE_HTML = '<!doctype html><title>console fixture</title>';

describe('GET /field', () => {
  it('serves field.html for /field and its app paths, the service worker, the manifest and icons', async () => {
    const app = await appWith({
      'index.html': CONSOLE_HTML,
      'field.html': FIELD_HTML,
      'field/sw.js': 'self.addEventListener("fetch", () => {});',
      'field/manifest.webmanifest': '{"name":"Farmland field","start_url":"/field/"}',
      'field/icons/icon-192.png': 'png',
    });
    for (const url of ['/field', '/field/', '/field/capture', '/field/queue/123?x=1']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe(FIELD_HTML);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      // What the field app needs from the page's policies: geolocation, its service worker and maplibre's blob: workers.
      expect(res.headers['permissions-policy']).toMatch(/geolocation=\(self\)/);
      expect(res.headers['content-security-policy']).toMatch(/worker-src 'self' blob:/);
      expect(res.headers['content-security-policy']).toMatch(/script-src 'self'(;|$)/);
    }
    const sw = await app.inject({ method: 'GET', url: '/field/sw.js' });
    expect(sw.statusCode).toBe(200);
    expect(sw.headers['service-worker-allowed']).toBe('/field/');
    expect(sw.headers['cache-control']).toBe('no-cache');
    expect(sw.headers['content-type']).toMatch(/javascript/);
    expect(sw.body).toContain('addEventListener');
    const manifest = await app.inject({ method: 'GET', url: '/field/manifest.webmanifest' });
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['content-type']).toMatch(/application\/manifest\+json/);
    expect(manifest.json()).toMatchObject({ start_url: '/field/' });
    const icon = await app.inject({ method: 'GET', url: '/field/icons/icon-192.png' });
    expect([icon.statusCode, icon.headers['content-type']]).toEqual([200, 'image/png']);
    // The console keeps its own paths.
    const consolePage = await app.inject({ method: 'GET', url: '/admin/dashboard' });
    expect(consolePage.body).toBe(CONSOLE_HTML);
  });

  it('answers 404 for a missing file (never the page), and for paths that leave the folder', async () => {
    const app = await appWith({ 'index.html': CONSOLE_HTML, 'field.html': FIELD_HTML, 'secret.txt': 'no', 'field/sw.js': '//' });
    for (const url of ['/field/missing.js', '/field/icons/none.png', '/field/..%2Fsecret.txt', '/field/%E0%A4%A']) {
      const res = await app.inject({ method: 'GET', url });
      // A broken percent-encoding is refused by the router (400) before the route.
      expect(url.endsWith('%A') ? [400, 404] : [404], url).toContain(res.statusCode);
      expect(res.body, url).not.toContain('<title>');
      expect(res.body).not.toBe('no');
    }
  });

  it('answers 404 cleanly while the field app is not built (the console still served), and without any build', async () => {
    const app = await appWith({ 'index.html': CONSOLE_HTML });
    for (const url of ['/field', '/field/', '/field/capture', '/field/sw.js', '/field/manifest.webmanifest']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.body).toBe('Not found');
    }
    expect((await app.inject({ method: 'GET', url: '/admin' })).body).toBe(CONSOLE_HTML);
    const none = await buildApp(
      { ...env.deps, config: { ...env.deps.config, webDistDir: path.join(os.tmpdir(), `no-such-dist-${process.pid}`) } },
      { serveWeb: true },
    );
    apps.push(none);
    await none.ready();
    expect((await none.inject({ method: 'GET', url: '/field' })).statusCode).toBe(404);
    expect((await none.inject({ method: 'GET', url: '/field/sw.js' })).statusCode).toBe(404);
  });
});
