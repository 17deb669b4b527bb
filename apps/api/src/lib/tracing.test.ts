// Opt-in tracing: without OTEL_EXPORTER_OTLP_ENDPOINT nothing starts; with it, a request's server span (route template,
// request id) reaches an OTLP/HTTP receiver (a local one here).
import http from 'node:http';
import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { testEnv, type TestEnv } from '../test/harness.js';
import { currentTracing, startTracing } from './tracing.js';

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
});
