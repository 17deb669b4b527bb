// Opt-in tracing: without OTEL_EXPORTER_OTLP_ENDPOINT nothing starts; with it, a request's server span (route template,
// request id) reaches an OTLP/HTTP receiver (a local one here); each database round trip of a request is a client span
// under it, and each job attempt a root span with its statements under it (an in-memory exporter), on either engine.
import http from 'node:http';
import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { arrangeTenant, outcome, rect, square } from '../test/analysis-fixtures.js';
import { testEnv, type TestEnv } from '../test/harness.js';
import { currentTracing, jobSpan, startTracing } from './tracing.js';

let env: TestEnv;
const bodies: string[] = [];
let receiver: http.Server;
let endpoint: string;
beforeAll(async () => {
  env = await testEnv();
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      bodies.push(`${req.method} ${req.url} ${req.headers['content-type']} ${body}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(receiver.address() as net.AddressInfo).port}`;
});
afterAll(async () => {
  await currentTracing()?.shutdown();
  await new Promise((resolve) => receiver.close(resolve));
});

describe('tracing', () => {
  it('is off, and not started, without an OTLP endpoint', async () => {
    expect(env.config.otlpEndpoint).toBeNull();
    expect(await startTracing(env.config)).toBeNull();
    expect(currentTracing()).toBeNull();
  });

  it('sends a server span per request, named by its route template, with the request id', async () => {
    const tracing = await startTracing({ otlpEndpoint: endpoint });
    expect(tracing).not.toBeNull();
    const app = await buildApp(env.deps);
    await app.ready();
    try {
      const res = await app.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(200);
      const requestId = String(res.headers['x-request-id']);
      await tracing!.flush();
      const sent = bodies.find((b) => b.includes(requestId));
      expect(sent).toBeDefined();
      expect(sent).toMatch(/^POST \/v1\/traces application\/json/);
      expect(sent).toContain('"GET /api/health"');
      expect(sent).toContain('farmland.request_id');
    } finally {
      await app.close();
      await tracing!.shutdown();
    }
    expect(currentTracing()).toBeNull();
  });

  it('makes a span of each database round trip of a request, under its server span, with no value in it', async () => {
    const { InMemorySpanExporter } = await import('@opentelemetry/sdk-trace-node');
    const memory = new InMemorySpanExporter();
    const tracing = await startTracing({ otlpEndpoint: 'http://127.0.0.1:9' }, 'farmland-api', 'test', { exporter: memory });
    const app = await buildApp(env.deps);
    await app.ready();
    try {
      const headers = { authorization: `Bearer ${env.as('adminA').token}` };
      const res = await app.inject({ method: 'GET', url: '/api/farms/?page_size=1&search=Oyo', headers });
      expect(res.statusCode).toBe(200);
      // Database.query (pg.Pool's callback form on PostgreSQL) as well as the scoped reads: readiness runs its checks
      // live (health reads the result of a background check, docs/decisions/0086-load-shedding-on-queueing.md).
      expect((await app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
      const spans = memory.getFinishedSpans();
      for (const [url, requestId] of [
        ['/api/farms/', res.headers['x-request-id']],
        ['/api/ready', undefined],
      ] as const) {
        const server = spans.find((s) => s.name === `GET ${url}` && (!requestId || s.attributes['farmland.request_id'] === requestId));
        expect(server, url).toBeDefined();
        const statements = spans.filter((s) => s.spanContext().traceId === server!.spanContext().traceId && s.name.startsWith('db '));
        expect(statements.length, url).toBeGreaterThan(0);
        expect(
          statements.some((s) => s.parentSpanContext?.spanId === server!.spanContext().spanId),
          url,
        ).toBe(true);
        for (const st of statements) {
          expect(st.attributes['db.system.name']).toBe('postgresql');
          expect(st.attributes['farmland.db_engine']).toBe(env.engine === 'postgres' ? 'postgresql' : 'pglite');
          expect(st.name).toMatch(/^db [A-Z]+$/);
        }
      }
      // No tenant id, user id or searched text in any span: texts are recorded only when their values travel apart.
      const everything = JSON.stringify(spans.map((s) => s.attributes));
      for (const secret of [env.fx.tenantA, env.fx.adminA, 'Oyo']) expect(everything).not.toContain(secret);
      // PGlite's reads carry their values as parameters, so their text is recorded; PostgreSQL's one-round-trip reads
      // write them into the text (db/client.ts simple()), so those spans carry the operation alone.
      if (env.engine === 'pglite') expect(spans.some((s) => typeof s.attributes['db.query.text'] === 'string')).toBe(true);
      // Outside any request or job (boot, pg-boss's pollers): no span. Such a statement's span would be a root one; a job
      // that another file of this worker started may finish meanwhile, and its spans (a job root, statements under it)
      // are right to be there.
      memory.reset();
      await env.deps.database.query('SELECT 1');
      expect(memory.getFinishedSpans().filter((s) => s.name.startsWith('db ') && !s.parentSpanContext)).toEqual([]);
    } finally {
      await app.close();
      await tracing!.shutdown();
    }
  });

  it('makes a root span of each job attempt, with the statements of the job under it', async () => {
    const { InMemorySpanExporter } = await import('@opentelemetry/sdk-trace-node');
    const memory = new InMemorySpanExporter();
    const tracing = await startTracing({ otlpEndpoint: 'http://127.0.0.1:9' }, 'farmland-api', 'test', { exporter: memory });
    try {
      await jobSpan('probe', { 'farmland.attempt': 0 }, () => env.deps.database.query('SELECT 1'));
      const [db, job] = memory.getFinishedSpans();
      expect(job?.name).toBe('job probe');
      expect(job?.parentSpanContext).toBeUndefined();
      expect(db?.name).toBe('db SELECT');
      expect(db?.parentSpanContext?.spanId).toBe(job!.spanContext().spanId);
      // A real analysis, run by the job runner of this test's app: `job custom-analysis`, its run, its statements.
      memory.reset();
      const t = await arrangeTenant(env, [{ name: 'Traced block', ring: rect(20.0, 20.0, 20.1, 20.1) }]);
      const res = await t.caller.post('/api/custom-analysis/', {
        name: 'Traced',
        operational_areas: t.areaIds,
        locations: [{ farm_name: 'One', farm_coordinates: square(20.01, 20.01) }],
        require_farm_recognition: false,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      await outcome(t.caller, res.body.data.id);
      const spans = memory.getFinishedSpans();
      const run = spans.find(
        (s) =>
          s.name === 'job custom-analysis' &&
          spans.some(
            (r) =>
              r.name === 'analysis.run' && r.attributes['farmland.analysis_id'] === res.body.data.id && r.spanContext().traceId === s.spanContext().traceId,
          ),
      );
      expect(run, spans.map((s) => s.name).join(', ')).toBeDefined();
      expect(run!.parentSpanContext).toBeUndefined();
      expect(spans.filter((s) => s.spanContext().traceId === run!.spanContext().traceId && s.name.startsWith('db ')).length).toBeGreaterThan(3);
    } finally {
      await tracing!.shutdown();
    }
  });
});
