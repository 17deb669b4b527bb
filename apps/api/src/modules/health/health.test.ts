// Health and the error contract: the database answers, unknown routes are JSON 404s, bodies are capped, no stack traces.
import net from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { testEnv, type TestEnv } from '../../test/harness.js';

let env: TestEnv;
beforeAll(async () => {
  env = await testEnv();
});

describe('operations', () => {
  it('reports the database reachable, with version and engine', async () => {
    const res = await env.as('anonymous').get('/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', database: 'ok', engine: env.engine });
    expect(res.body.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('answers from the last database check while a new one waits in the database queue, and reports its age', async () => {
    // The same deps on a database whose `SELECT 1` the test can hold: a check that waits as it would behind a long queue.
    const { buildApp } = await import('../../app.js');
    let hold: Promise<void> | null = null;
    let release = () => {};
    let heldChecks = 0;
    const database = {
      ...env.deps.database,
      query: async <T>(text: string, params?: unknown[]): Promise<T[]> => {
        if (hold && text === 'SELECT 1') {
          heldChecks++;
          await hold;
        }
        return env.deps.database.query<T>(text, params);
      },
    };
    const app = await buildApp({ ...env.deps, database });
    await app.ready();
    try {
      const first = await app.inject({ method: 'GET', url: '/api/health' });
      expect(first.statusCode).toBe(200);
      expect(first.json()).toMatchObject({ status: 'ok', database: 'ok', database_checked_ms_ago: expect.any(Number) });
      hold = new Promise<void>((r) => (release = r));
      // Probes answer at once from the last answer until it is a second old; the next one starts a check, which is held.
      let probe = first;
      for (let i = 0; i < 400 && heldChecks === 0; i++) {
        await new Promise((r) => setTimeout(r, 10));
        probe = await app.inject({ method: 'GET', url: '/api/health' });
        expect(probe.statusCode).toBe(200);
      }
      expect(heldChecks).toBe(1);
      expect(probe.json()).toMatchObject({ status: 'ok', database: 'ok' });
      expect(probe.json().database_checked_ms_ago).toBeGreaterThanOrEqual(1000);
      // While that check waits, probes still answer (they join it, they do not queue another).
      const again = await app.inject({ method: 'GET', url: '/api/health' });
      expect(again.statusCode).toBe(200);
      expect(heldChecks).toBe(1);
      release();
      hold = null;
      let fresh = await app.inject({ method: 'GET', url: '/api/health' });
      for (let i = 0; i < 100 && fresh.json().database_checked_ms_ago >= 1000; i++) fresh = await app.inject({ method: 'GET', url: '/api/health' });
      expect(fresh.json()).toMatchObject({ status: 'ok', database: 'ok' });
      expect(fresh.json().database_checked_ms_ago).toBeLessThan(1000);
    } finally {
      release();
      await app.close();
    }
  });

  it('serves an OpenAPI 3.1 document that lists the sign-in routes', async () => {
    const res = await env.as('anonymous').get('/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(Object.keys(res.body.paths)).toEqual(expect.arrayContaining(['/api/auth/login/', '/api/auth/login/confirm', '/api/auth/token/refresh/']));
    expect(res.body.paths['/api/auth/login/confirm'].post.requestBody.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['mfa_token', 'user_token', 'code']),
    );
  });

  it('answers unknown API routes with a JSON 404 in the error shape', async () => {
    const res = await env.as('anonymous').get('/api/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Page not found.', code: 'not_found' });
  });

  it('accepts paths with or without the trailing slash', async () => {
    expect((await env.as('anonymous').get('/api/health/')).status).toBe(200);
    expect((await env.as('adminA').get('/api/activity-logs')).status).toBe(200);
  });

  it('answers headers larger than the server takes with 431 in the Problem shape (and a malformed request with 400)', async () => {
    // Node's HTTP parser answers these before Fastify has a request: a real socket, not inject.
    const server = env.app.server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as net.AddressInfo;
      const raw = (request: string) =>
        new Promise<string>((resolve, reject) => {
          const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
          let answer = '';
          socket.on('data', (d) => (answer += d.toString()));
          socket.on('close', () => resolve(answer));
          socket.on('error', reject);
        });
      const parse = (answer: string) => ({
        status: Number(answer.split(' ')[1]),
        head: answer.split('\r\n\r\n')[0]!,
        body: JSON.parse(answer.split('\r\n\r\n')[1]!),
      });
      const big = parse(await raw(`GET /api/health HTTP/1.1\r\nHost: x\r\nCookie: ${'a'.repeat(20_000)}\r\n\r\n`));
      expect(big.status).toBe(431);
      expect(big.head).toMatch(/content-type: application\/json/i);
      expect(big.body).toEqual({ code: 'header_too_large', message: expect.stringMatching(/headers are larger than this server accepts/) });
      const bad = parse(await raw('NOT-HTTP\r\n\r\n'));
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ code: 'bad_request', message: 'The request is not valid HTTP.' });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('marks every public route public in the OpenAPI document (no security requirement), and no other', async () => {
    const doc = (await env.as('anonymous').get('/api/openapi.json')).body as { paths: Record<string, Record<string, { security?: unknown[] }>> };
    for (const path of [
      '/api/farmers/template.csv',
      '/api/accounts/agents/template.csv',
      '/api/custom-analysis/template.csv',
      '/api/custom-analysis/template.geojson',
    ]) {
      expect(doc.paths[path]?.get?.security, path).toEqual([]);
    }
    const documented = (url: string, method: string) => doc.paths[url.replace(/:([A-Za-z_]+)/g, '{$1}')]?.[method.toLowerCase()];
    let publicRoutes = 0;
    for (const r of env.app.routeTable) {
      const op = documented(r.url, r.method);
      if (!op) continue;
      if (r.access === 'public') {
        publicRoutes++;
        expect(op.security, `${r.method} ${r.url}`).toEqual([]);
      } else expect(op.security, `${r.method} ${r.url}`).not.toEqual([]);
    }
    expect(publicRoutes).toBeGreaterThanOrEqual(10);
  });

  it('refuses an oversized body with 413 before touching the database', async () => {
    const big = { email: 'a@b.co', password: 'x'.repeat(env.config.bodyLimit + 10) };
    const res = await env.as('anonymous').post('/api/auth/login/', big);
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('payload_too_large');
  });

  it("names the limit that applied: an upload route's own, not the general one", async () => {
    const big = JSON.stringify({ operational_areas: [], locations: [{ farm_name: 'x'.repeat(env.config.uploadLimit + 10) }] });
    const res = await env.as('adminA').request({ method: 'POST', url: '/api/custom-analysis/', payload: big, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(413);
    expect(res.body.message).toContain(String(env.config.uploadLimit));
  });

  it('makes its own request ids (a client-sent one is ignored unless TRUST_PROXY is on)', async () => {
    const res = await env.as('anonymous').get('/api/health', { 'x-request-id': 'attacker-chosen' });
    expect(res.headers['x-request-id']).not.toBe('attacker-chosen');
    expect(String(res.headers['x-request-id'])).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers malformed JSON with a 400, not a 500, and never a stack trace', async () => {
    const res = await env
      .as('anonymous')
      .request({ method: 'POST', url: '/api/auth/login/', payload: '{"email": ', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.raw).not.toMatch(/at .*\.js:\d+/);
  });

  it('names the bad field in a 400', async () => {
    const res = await env.as('anonymous').post('/api/auth/login/', { email: 'not-an-email', password: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors).toEqual({ email: [expect.any(String)] });
  });

  it('tags every response with a request id', async () => {
    const res = await env.as('anonymous').get('/api/health');
    expect(res.headers['x-request-id']).toMatch(/[0-9a-f-]{36}/);
  });
});

describe('unexpected errors', () => {
  it('answer 500 with the request id and no details, and are logged with that id', async () => {
    const { buildApp } = await import('../../app.js');
    const lines: string[] = [];
    const pino = (await import('pino')).default;
    const log = pino({ level: 'error' }, { write: (l: string) => void lines.push(l) });
    const app = await buildApp({ ...env.deps, log }, { logger: log });
    app.get('/api/boom', { config: { access: 'public' } }, async () => {
      throw new Error('secret internal detail at /srv/app.js:12');
    });
    await app.ready();
    const res = await app.inject({ method: 'GET', url: '/api/boom' });
    await app.close();
    expect(res.statusCode).toBe(500);
    const body = res.json();
    expect(body).toEqual({ message: expect.any(String), code: 'internal_error', request_id: expect.stringMatching(/[0-9a-f-]{36}/) });
    expect(res.body).not.toContain('secret internal detail');
    const logged = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'unhandled error');
    expect(logged.requestId).toBe(body.request_id);
    expect(logged.err.message).toContain('secret internal detail');
  });
});

describe('API documentation', () => {
  it('serves the documentation page to anyone', async () => {
    const res = await env.as('anonymous').get('/api/docs/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
  });
});

describe('serving the console', () => {
  it('serves the page for console paths, JSON 404s for unknown API paths, and never a 500 for a bad path', async () => {
    const fs = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const { buildApp } = await import('../../app.js');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'web-dist-'));
    fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>console</title>');
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.writeFileSync(path.join(dir, 'assets', 'app-123.js'), 'console.log(1)');
    const app = await buildApp({ ...env.deps, config: { ...env.deps.config, webDistDir: dir } }, { serveWeb: true });
    await app.ready();
    const page = await app.inject({ method: 'GET', url: '/admin/dashboard' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    const asset = await app.inject({ method: 'GET', url: '/assets/app-123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toMatch(/immutable/);
    expect((await app.inject({ method: 'GET', url: '/assets/missing.js' })).statusCode).toBe(404);
    const api = await app.inject({ method: 'GET', url: '/api/api/nothing-here' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ message: 'Page not found.', code: 'not_found' });
    expect([400, 404]).toContain((await app.inject({ method: 'GET', url: '/%E0%A4%A' })).statusCode);
    expect((await app.inject({ method: 'GET', url: '/../../etc/passwd' })).statusCode).not.toBe(500);
    await app.close();
  });
});
