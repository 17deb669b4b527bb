// The webhook test files' shared set-up: a local receiver that records every request, a test environment whose
// operator allow-list admits it (retries shrunk to seconds), tenant A with one operational area, and the delivery-log
// poll. Call webhookSuite() at the top of a test file; env, t and recv are set in its beforeAll (live bindings).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect } from 'vitest';
import { arrangeTenant } from './analysis-fixtures.js';
import { testEnv, type Caller, type TestEnv } from './harness.js';

type Received = { headers: http.IncomingHttpHeaders; body: string; path: string };

/** A local receiver: records every request; answers what `status` says for its path. */
export async function receiver() {
  const received: Received[] = [];
  const status = new Map<string, number>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({ headers: req.headers, body, path });
      res.statusCode = status.get(path) ?? 200;
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return { received, status, url: (path: string) => `http://127.0.0.1:${port}${path}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

export let env: TestEnv;
export let t: Awaited<ReturnType<typeof arrangeTenant>>;
export let recv: Awaited<ReturnType<typeof receiver>>;
let saved: TestEnv['config']['webhooks'];

export function webhookSuite(): void {
  beforeAll(async () => {
    env = await testEnv();
    // The operator's allow-list admits the local receiver; the retry schedule is shrunk so retries come within seconds.
    saved = env.deps.config.webhooks;
    env.deps.config.webhooks = { ...saved, allowedHosts: ['127.0.0.1'], retryScale: 0.0002, timeoutMs: 5000 };
    t = await arrangeTenant(env, [
      {
        name: 'Hook area',
        ring: [
          [20, 20],
          [20.5, 20],
          [20.5, 20.5],
          [20, 20.5],
          [20, 20],
        ],
      },
    ]);
    recv = await receiver();
  });

  afterAll(async () => {
    env.deps.config.webhooks = saved;
    await recv?.close();
  });
}

/** Polls the endpoint's delivery log until `until` holds for some delivery (or fails after 30 s). */
export async function waitForDelivery(caller: Caller, endpointId: string, until: (d: any) => boolean, timeoutMs = 30_000): Promise<any> {
  let last: unknown = null;
  for (const end = Date.now() + timeoutMs; Date.now() < end;) {
    const res = await caller.get(`/api/webhooks/${endpointId}/deliveries/`);
    expect(res.status).toBe(200);
    last = res.body.data.results;
    const hit = (res.body.data.results as any[]).find(until);
    if (hit) return hit;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`delivery state not reached: ${JSON.stringify(last)}`);
}

export const register = async (caller: Caller, path: string, events: string[]) => {
  const res = await caller.post('/api/webhooks/', { url: recv.url(path), events, description: `Receiver ${path}` });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: string; secret: string; secret_hint: string };
};
