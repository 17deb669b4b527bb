// Operating the service: /api/metrics (Prometheus text, its access rule, no tenant in a label), /api/health/ready
// (distinct from liveness; 503 when the database stops answering, on PostgreSQL where it can really be stopped), and
// load shedding (forced through its configuration: a heap threshold of one byte sheds everything but health and metrics;
// a bound of one request in flight, reached by a request the test holds open).
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import type { Config } from '../config.js';
import { testEnv, type TestEnv } from '../test/harness.js';

let env: TestEnv;
const extra: FastifyInstance[] = [];
beforeAll(async () => {
  env = await testEnv();
});
afterAll(async () => {
  await Promise.all(extra.map((a) => a.close()));
});

/** A second app on the same database and deps, with some configuration changed. */
async function appWith(overrides: Partial<Config>): Promise<FastifyInstance> {
  const app = await buildApp({ ...env.deps, config: { ...env.config, ...overrides } });
  await app.ready();
  extra.push(app);
  return app;
}

/** Prometheus text format 0.0.4: comments (# HELP, # TYPE) and samples `name{labels} value`. */
function parsePrometheus(text: string): Array<{ name: string; labels: Record<string, string>; value: number }> {
  const samples: Array<{ name: string; labels: Record<string, string>; value: number }> = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# HELP ') || line.startsWith('# TYPE ')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?(?:[0-9.e+-]+|NaN|\+Inf|-Inf))$/.exec(line);
    if (!m) throw new Error(`not Prometheus text: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!;
    samples.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return samples;
}

describe('metrics', () => {
  it('answers in the Prometheus text format with the request histogram after a few calls, by route template', async () => {
    const farm = (await env.as('adminA').get('/api/farms/?page_size=1')).body.results?.[0] ?? (await env.as('adminA').get('/api/farms/')).body.data?.[0];
    for (let i = 0; i < 3; i++) expect((await env.as('anonymous').get('/api/health')).status).toBe(200);
    if (farm?.id) expect((await env.as('adminA').get(`/api/farms/${farm.id}/`)).status).toBe(200);
    const res = await env.app.inject({ method: 'GET', url: '/api/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const samples = parsePrometheus(res.body);
    const count = samples.find(
      (s) => s.name === 'http_request_duration_seconds_count' && s.labels['route'] === '/api/health' && s.labels['status_code'] === '200',
    );
    expect(count?.value).toBeGreaterThanOrEqual(3);
    const names = new Set(samples.map((s) => s.name));
    for (const n of [
      'http_requests_in_flight',
      'analysis_queue_depth',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_p99_seconds',
    ])
      expect(names, n).toContain(n);
    if (env.engine === 'postgres') expect(samples.find((s) => s.name === 'db_pool_connections' && s.labels['state'] === 'total')?.value).toBeGreaterThan(0);
    // No id of any kind in a label value: routes are templates (/api/farms/:id/), never paths asked for.
    const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
    expect(samples.filter((s) => Object.values(s.labels).some((v) => uuid.test(v)))).toEqual([]);
    if (farm?.id) expect(samples.some((s) => s.labels['route'] === '/api/farms/:id/')).toBe(true);
  });

  it('needs the bearer token when METRICS_TOKEN is set (404 without it or with another), and refuses forwarded calls without one', async () => {
    const token = 'metrics-token-0123456789abcdef';
    const app = await appWith({ metricsToken: token });
    expect((await app.inject({ method: 'GET', url: '/api/metrics' })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/api/metrics', headers: { authorization: 'Bearer wrong-token-0123456789' } })).statusCode).toBe(404);
    const ok = await app.inject({ method: 'GET', url: '/api/metrics', headers: { authorization: `Bearer ${token}` } });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toMatch(/^# HELP /m);
    // Without a token: a call that came through a proxy (X-Forwarded-For) is not "this machine".
    const proxied = await env.app.inject({ method: 'GET', url: '/api/metrics', headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(proxied.statusCode).toBe(404);
    expect(proxied.json()).toEqual({ code: 'not_found', message: 'Page not found.' });
    const remote = await env.app.inject({ method: 'GET', url: '/api/metrics', remoteAddress: '203.0.113.9' });
    expect(remote.statusCode).toBe(404);
  });
});

describe('readiness', () => {
  it('is a separate route from liveness and reports each check', async () => {
    const res = await env.as('anonymous').get('/api/health/ready');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok', storage: 'ok', jobs: 'ok' } });
  });

  it('says jobs are off in a process that leaves them to `npm run worker`', async () => {
    const app = await appWith({ analysisWorkers: false });
    const res = await app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(res.statusCode).toBe(200);
    expect(res.json().checks.jobs).toBe('off');
  });

  it.skipIf(!process.env['TEST_DATABASE_URL'])('turns 503 when the database refuses connections, and back to 200 when it takes them again', async () => {
    const dbName = new URL(env.adminUrl!).pathname.slice(1);
    const owner = new pg.Client({ connectionString: process.env['TEST_DATABASE_URL'] });
    await owner.connect();
    try {
      // The database "stops": no new connection is accepted, and the pool's open ones are ended.
      await owner.query(`ALTER DATABASE ${dbName} ALLOW_CONNECTIONS false`);
      await owner.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [dbName]);
      let down: { statusCode: number; json(): { checks: Record<string, string> } } | null = null;
      for (let i = 0; i < 50 && down?.statusCode !== 503; i++) down = await env.app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(down!.statusCode).toBe(503);
      expect(down!.json().checks.database).toBe('failed');
      // Liveness still answers (the process is alive) but says the database is unreachable.
      expect((await env.app.inject({ method: 'GET', url: '/api/health' })).json().database).toBe('unreachable');
    } finally {
      await owner.query(`ALTER DATABASE ${dbName} ALLOW_CONNECTIONS true`);
      await owner.end();
    }
    let up = await env.app.inject({ method: 'GET', url: '/api/health/ready' });
    for (let i = 0; i < 50 && up.statusCode !== 200; i++) up = await env.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(up.statusCode).toBe(200);
    expect(up.json().status).toBe('ready');
  });
});

describe('load shedding', () => {
  it('answers 503 with Retry-After and the Problem shape past a threshold, and never sheds health, readiness or metrics', async () => {
    const app = await appWith({ loadShedding: { ...env.config.loadShedding, maxHeapUsedBytes: 1, retryAfterSeconds: 7 } });
    // under-pressure samples on its own timer, and shedding is armed two samples after ready: poll until it sheds.
    let res = await app.inject({ method: 'GET', url: '/api/farms/' });
    for (let i = 0; i < 300 && res.statusCode !== 503; i++) {
      await new Promise((r) => setTimeout(r, 25));
      res = await app.inject({ method: 'GET', url: '/api/farms/' });
    }
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('7');
    expect(res.json()).toEqual({ code: 'overloaded', message: expect.stringMatching(/busy/) });
    expect(app.isUnderPressure()).toBe(true);
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/health/' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/health/ready' })).statusCode).toBe(200);
    const metrics = await app.inject({ method: 'GET', url: '/api/metrics' });
    expect(metrics.statusCode).toBe(200);
    expect(metrics.body).toMatch(/http_requests_shed_total\{reason="[a-zA-Z]+"\} [1-9]/);
    // The default configuration sheds nothing at rest.
    expect((await env.as('adminA').get('/api/farms/')).status).toBe(200);
  });

  it('sheds past the bound on requests in flight (503, Retry-After, the Problem body), never health, readiness or metrics, and stops once one ends', async () => {
    const app = await buildApp({ ...env.deps, config: { ...env.config, loadShedding: { ...env.config.loadShedding, maxInFlight: 1, retryAfterSeconds: 5 } } });
    // A route of this test that answers when the test says: the one request in flight, for as long as the test wants.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let entered!: () => void;
    const inHandler = new Promise<void>((r) => (entered = r));
    app.get('/held-open', { config: { access: 'public' } }, async () => {
      entered();
      await held;
      return { ok: true };
    });
    await app.ready();
    extra.push(app);
    const before = await app.inject({ method: 'GET', url: '/api/metrics' });
    const shedBefore = Number(/http_requests_shed_total\{reason="inFlight"\} (\d+)/.exec(before.body)?.[1] ?? 0);

    const holding = app.inject({ method: 'GET', url: '/held-open' });
    await inHandler;
    const res = await app.inject({ method: 'GET', url: '/api/farms/' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json()).toEqual({ code: 'overloaded', message: expect.stringMatching(/busy/) });
    // Shed before authentication: a signed-in caller is shed the same way.
    const token = env.as('adminA').token;
    expect((await app.inject({ method: 'GET', url: '/api/farms/', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(503);
    for (const url of ['/api/health', '/api/health/', '/api/ready', '/api/health/ready', '/api/metrics'])
      expect((await app.inject({ method: 'GET', url })).statusCode, url).toBe(200);
    const during = await app.inject({ method: 'GET', url: '/api/metrics' });
    expect(Number(/http_requests_shed_total\{reason="inFlight"\} (\d+)/.exec(during.body)?.[1])).toBeGreaterThanOrEqual(shedBefore + 2);

    release();
    expect((await holding).statusCode).toBe(200);
    // The held request has ended: the next one is served, and so is one after it (the count went back down).
    for (let i = 0; i < 2; i++)
      expect((await app.inject({ method: 'GET', url: '/api/farms/', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(200);
  });
});
