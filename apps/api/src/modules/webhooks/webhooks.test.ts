// Tenant webhooks through the API (issue 32, part 3): an analysis.completed event reaches a receiver on 127.0.0.1
// (allow-listed for this file) and its signature verifies with the Standard Webhooks reference library; a receiver that
// answers 500 gets retries that show in the delivery log, and a redelivery is a new attempt; private addresses are
// refused with a 400 naming url; agents and SDK keys cannot manage webhooks; tenant B cannot see or change tenant A's;
// the secret is shown once and never logged. Tests wait on the delivery log's state, never on time.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../lib/crypto.js';
import { PLOT_RISK_DEFAULTS } from '@farmland/contracts';
import { arrangeTenant, rect, square, type Ring } from '../../test/analysis-fixtures.js';
import { withScope } from '../../db/client.js';
import { makeUser } from '../../test/fixtures.js';
import { multipart } from '../../test/geo-fixtures.js';
import { testEnv, type Caller, type TestEnv } from '../../test/harness.js';
import { checkWebhookUrl, embeddedV4, isPrivateAddress } from './webhooks.address.js';
import { nextDelaySeconds, pruneDeliveries, RETRY_SCHEDULE_SECONDS } from './webhooks.job.js';
import { signature } from './webhooks.send.js';

type Received = { headers: http.IncomingHttpHeaders; body: string; path: string };

/** A local receiver: records every request; answers what `status` says for its path. */
async function receiver() {
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

let env: TestEnv;
let t: Awaited<ReturnType<typeof arrangeTenant>>;
let recv: Awaited<ReturnType<typeof receiver>>;
let saved: TestEnv['config']['webhooks'];

beforeAll(async () => {
  env = await testEnv();
  // The operator's allow-list admits the local receiver; the retry schedule is shrunk so retries come within seconds.
  saved = env.deps.config.webhooks;
  env.deps.config.webhooks = { ...saved, allowedHosts: ['127.0.0.1'], retryScale: 0.0002, timeoutMs: 5000 };
  t = await arrangeTenant(env, [{ name: 'Hook area', ring: [[20, 20], [20.5, 20], [20.5, 20.5], [20, 20.5], [20, 20]] }]);
  recv = await receiver();
});

afterAll(async () => {
  env.deps.config.webhooks = saved;
  await recv?.close();
});

/** Polls the endpoint's delivery log until `until` holds for some delivery (or fails after 30 s). */
async function waitForDelivery(caller: Caller, endpointId: string, until: (d: any) => boolean, timeoutMs = 30_000): Promise<any> {
  let last: unknown = null;
  for (const end = Date.now() + timeoutMs; Date.now() < end; ) {
    const res = await caller.get(`/api/webhooks/${endpointId}/deliveries/`);
    expect(res.status).toBe(200);
    last = res.body.data.results;
    const hit = (res.body.data.results as any[]).find(until);
    if (hit) return hit;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`delivery state not reached: ${JSON.stringify(last)}`);
}

const register = async (caller: Caller, path: string, events: string[]) => {
  const res = await caller.post('/api/webhooks/', { url: recv.url(path), events, description: `Receiver ${path}` });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: string; secret: string; secret_hint: string };
};

describe('delivery', () => {
  it('sends a signed analysis.completed event that verifies with the Standard Webhooks library', async () => {
    const ep = await register(t.caller, '/completed', ['analysis.completed', 'analysis.failed']);
    expect(ep.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const res = await t.caller.post('/api/custom-analysis/', {
      name: 'Hooked analysis',
      operational_areas: t.areaIds,
      require_farm_recognition: false,
      locations: [{ farm_name: 'One', farm_coordinates: square(20.1, 20.1) }, { farm_name: 'Two', farm_coordinates: square(20.2, 20.2) }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const analysisId = res.body.data.id as string;

    const d = await waitForDelivery(t.caller, ep.id, (x) => x.status === 'succeeded');
    expect(d).toMatchObject({ event_type: 'analysis.completed', attempts: 1, response_code: 200, next_attempt_at: null });
    expect(d.duration_ms).toBeGreaterThanOrEqual(0);
    expect(d.history).toHaveLength(1);

    const got = recv.received.find((r) => r.path === '/completed')!;
    expect(got.headers['webhook-id']).toBe(d.event_id);
    // The reference implementation: throws unless the signature and the timestamp's tolerance hold.
    const payload = new Webhook(ep.secret).verify(got.body, {
      'webhook-id': String(got.headers['webhook-id']),
      'webhook-timestamp': String(got.headers['webhook-timestamp']),
      'webhook-signature': String(got.headers['webhook-signature']),
    }) as { type: string; timestamp: string; data: Record<string, unknown> };
    expect(payload.type).toBe('analysis.completed');
    expect(payload.data).toMatchObject({ analysis_id: analysisId, status: 'completed', total_rows: 2, within_count: 2, error_count: 0 });
    expect(Number.isNaN(Date.parse(payload.timestamp))).toBe(false);
    // A tampered body does not verify.
    expect(() => new Webhook(ep.secret).verify(got.body.replace('completed', 'failed'), got.headers as Record<string, string>)).toThrow();
    // Our signer agrees with the reference for any message.
    const wh = new Webhook(ep.secret);
    const when = new Date();
    expect(wh.sign('msg_1', when, '{"a":1}')).toBe(signature(ep.secret, 'msg_1', Math.floor(when.getTime() / 1000), '{"a":1}'));
  });

  it('retries a receiver that answers 500, shows each attempt in the log, and redelivers as a new attempt', async () => {
    recv.status.set('/flaky', 500);
    const ep = await register(t.caller, '/flaky', ['farm.captured']);
    const sent = await t.caller.post(`/api/webhooks/${ep.id}/test/`);
    expect(sent.status).toBe(202);
    const failing = await waitForDelivery(t.caller, ep.id, (x) => x.attempts >= 3);
    expect(failing.event_type).toBe('webhook.test');
    expect(failing.response_code).toBe(500);
    expect(failing.history.length).toBeGreaterThanOrEqual(3);
    expect(failing.history.every((a: any) => a.outcome === 'failed' && a.response_code === 500)).toBe(true);
    // Every retry carries the same message id (receivers de-duplicate on it).
    const ids = new Set(recv.received.filter((r) => r.path === '/flaky').map((r) => r.headers['webhook-id']));
    expect(ids.size).toBe(1);

    // The receiver recovers: the next retry (or a redelivery) succeeds.
    recv.status.set('/flaky', 204);
    const ok = await waitForDelivery(t.caller, ep.id, (x) => x.status === 'succeeded');
    expect(ok.response_code).toBe(204);
    const again = await t.caller.post(`/api/webhooks/${ep.id}/deliveries/${ok.id}/redeliver/`);
    expect(again.status).toBe(202);
    expect(again.body.data.status).toBe('pending');
    const redone = await waitForDelivery(t.caller, ep.id, (x) => x.id === ok.id && x.status === 'succeeded' && x.attempts === ok.attempts + 1);
    expect(redone.history[0].attempt).toBe(ok.attempts + 1);
  });

  it('sends analysis.failed, farm.captured and farm.overlap_group_joined from the transactions that raise them', async () => {
    const ep = await register(t.caller, '/events', ['analysis.failed', 'farm.captured', 'farm.overlap_group_joined']);
    const [a] = await env.sql<{ id: string }>(sql`
      INSERT INTO custom_analyses (tenant_id, name, minimum_farm_size, status, progress) VALUES (${t.tenantId}, 'Doomed', 100, 'processing', 10) RETURNING id`);
    const { failAnalysisRun } = await import('../analyses/analyses.pipeline.js');
    await failAnalysisRun(env.deps, t.tenantId, a!.id, 'The analysis failed: test');
    // Failing it again raises nothing (it was already failed).
    await failAnalysisRun(env.deps, t.tenantId, a!.id, 'again');

    const [f] = await env.sql<{ id: string }>(sql`
      INSERT INTO farmers (tenant_id, first_name, last_name, folio_id) VALUES (${t.tenantId}, 'Hook', 'Farmer', ${`HOOK-${Date.now()}`}) RETURNING id`);
    // Farms are captured by agents (and SDK keys).
    const agent = await env.sessionFor((await makeUser(env, { tenantId: t.tenantId, role: 'agent' })).id);
    const one = await agent.post('/api/farms/', { farmer_id: f!.id, coordinates: square(20.3, 20.3) });
    expect(one.status, JSON.stringify(one.body)).toBe(201);
    const two = await agent.post('/api/farms/', { farmer_id: f!.id, coordinates: square(20.3005, 20.3) });
    expect(two.status, JSON.stringify(two.body)).toBe(201);
    expect(two.body.data.is_overlapping).toBe(true);

    await waitForDelivery(t.caller, ep.id, (x) => x.event_type === 'farm.overlap_group_joined' && x.status === 'succeeded');
    // The second capture joins the first farm to its group: the first farm's group changes too (its own event).
    await expect.poll(() => recv.received.filter((r) => r.path === '/events').length, { timeout: 30_000 }).toBe(5);
    const bodies = recv.received.filter((r) => r.path === '/events').map((r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> });
    const byType = (type: string) => bodies.filter((b) => b.type === type);
    expect(byType('analysis.failed')).toHaveLength(1);
    expect(byType('analysis.failed')[0]!.data).toMatchObject({ analysis_id: a!.id, status: 'failed', failure_reason: 'The analysis failed: test' });
    expect(byType('farm.captured').map((b) => b.data['farm_id']).sort()).toEqual([one.body.data.id, two.body.data.id].sort());
    expect(byType('farm.captured')[0]!.data).toMatchObject({ farmer_id: f!.id });
    const joined = byType('farm.overlap_group_joined').map((b) => b.data);
    expect(joined).toHaveLength(2);
    expect(joined).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ farm_id: two.body.data.id, overlap_group_id: two.body.data.overlap_group_id, previous_overlap_group_id: null, caused_by_farm_id: two.body.data.id }),
        expect.objectContaining({ farm_id: one.body.data.id, farmer_id: f!.id, overlap_group_id: two.body.data.overlap_group_id, previous_overlap_group_id: null, caused_by_farm_id: two.body.data.id }),
      ]),
    );
  });

  it('a disabled endpoint gets nothing; an event nobody subscribed to writes nothing', async () => {
    const ep = await register(t.caller, '/disabled', ['farm.captured']);
    expect((await t.caller.patch(`/api/webhooks/${ep.id}/`, { enabled: false })).body.data.enabled).toBe(false);
    const before = recv.received.filter((r) => r.path === '/disabled').length;
    const { recordWebhookEvent } = await import('./webhooks.events.js');
    const { withScope } = await import('../../db/client.js');
    await withScope(env.deps.db, { kind: 'tenant', tenantId: t.tenantId }, (tx) => recordWebhookEvent(tx, t.tenantId, 'farm.captured', { farm_id: 'x' }));
    const [n] = await env.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = ${ep.id}`);
    expect(n!.n).toBe(0);
    expect(recv.received.filter((r) => r.path === '/disabled').length).toBe(before);
  });

  it('counts deliveries by outcome in /metrics', async () => {
    const res = await env.app.inject({ method: 'GET', url: '/api/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(/webhook_deliveries_total\{outcome="success"\} [1-9]/);
    expect(res.body).toMatch(/webhook_deliveries_total\{outcome="failure"\} [1-9]/);
  });
});

describe('addresses', () => {
  it('refuses private, loopback and link-local URLs with a 400 naming url', async () => {
    for (const url of ['https://10.0.0.1/hook', 'https://169.254.169.254/latest/meta-data', 'https://[::1]/hook', 'https://[::ffff:10.0.0.1]/hook', 'https://100.64.1.1/x', 'https://[fd00::1]/x']) {
      const res = await t.caller.post('/api/webhooks/', { url, events: ['analysis.completed'] });
      expect(res.status, url).toBe(400);
      expect(Object.keys(res.body.errors)).toEqual(['url']);
    }
    // A host name that resolves to 127.0.0.1, without the allow-list.
    const list = env.deps.config.webhooks;
    env.deps.config.webhooks = { ...list, allowedHosts: [] };
    try {
      const res = await t.caller.post('/api/webhooks/', { url: 'https://localhost:8443/hook', events: ['analysis.completed'] });
      expect(res.status).toBe(400);
      expect(res.body.errors.url[0]).toMatch(/private|loopback/);
      const plain = await t.caller.post('/api/webhooks/', { url: recv.url('/x'), events: ['analysis.completed'] });
      expect(plain.status).toBe(400);
    } finally {
      env.deps.config.webhooks = list;
    }
    // Plain http is for allow-listed hosts only.
    const http93 = await t.caller.post('/api/webhooks/', { url: 'http://93.184.215.14/hook', events: ['analysis.completed'] });
    expect(http93.status).toBe(400);
    expect(http93.body.errors.url[0]).toMatch(/https/);
    const bad = await t.caller.post('/api/webhooks/', { url: 'ftp://example.org/x', events: ['nope'] });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['events.0', 'url']);
  });

  it('classifies addresses (IPv4, IPv6, IPv4 inside IPv6) and checks every resolved address', async () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '172.31.0.1', '192.168.1.1', '169.254.169.254', '100.100.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255', '::1', '::', 'fe80::1', 'fc00::1', 'ff02::1', '::ffff:10.0.0.1', '64:ff9b::a00:1', '2002:7f00:1::1']) {
      expect(isPrivateAddress(a), a).toBe(true);
    }
    for (const a of ['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8']) expect(isPrivateAddress(a), a).toBe(false);
    expect(embeddedV4('::ffff:7f00:1')).toBe('127.0.0.1');
    // A name with one public and one private address is refused (no pick-the-good-one).
    const mixed = await checkWebhookUrl('https://mixed.example/x', [], async () => [{ address: '93.184.215.14', family: 4 }, { address: '10.0.0.5', family: 4 }]);
    expect(mixed.ok).toBe(false);
    const cidr = await checkWebhookUrl('http://inside.example/x', ['10.0.0.0/8'], async () => [{ address: '10.0.0.5', family: 4 }]);
    expect(cidr).toMatchObject({ ok: true, address: '10.0.0.5', allowListed: true });
  });

  it('retries for about a day, on a schedule the configuration scales', () => {
    const total = RETRY_SCHEDULE_SECONDS.reduce((s, x) => s + x, 0);
    expect(total).toBeGreaterThan(20 * 3600);
    expect(total).toBeLessThanOrEqual(26 * 3600);
    expect(nextDelaySeconds(1, 1)).toBe(5);
    expect(nextDelaySeconds(RETRY_SCHEDULE_SECONDS.length + 1, 1)).toBeNull();
    expect(nextDelaySeconds(2, 0.01)).toBeCloseTo(3);
  });
});

describe('who may', () => {
  it('agents, SDK license keys and provider staff cannot manage webhooks', async () => {
    const agentA = await env.sessionFor(env.fx.agentA);
    expect((await agentA.get('/api/webhooks/')).status).toBe(403);
    expect((await agentA.post('/api/webhooks/', { url: 'https://93.184.215.14/x', events: ['farm.captured'] })).status).toBe(403);
    const key = `SDK-webhooks-${Date.now()}`;
    await env.sql(sql`INSERT INTO licenses (tenant_id, type, issued_date, expiry_date, key_hash, key_hint) VALUES (${t.tenantId}, 'SDK', '2021-01-01', '2099-01-01', ${sha256(key)}, ${key.slice(0, 10)})`);
    expect((await env.as('anonymous').get('/api/webhooks/', { 'x-license-key': key })).status).toBe(401);
    expect((await env.as('anonymous').post('/api/webhooks/', { url: 'https://93.184.215.14/x', events: ['farm.captured'] }, { 'x-license-key': key })).status).toBe(401);
    expect((await env.as('super').get('/api/webhooks/')).status).toBe(403);
  });

  it("tenant B cannot see or change tenant A's endpoints or deliveries (404)", async () => {
    const ep = await register(t.caller, '/isolated', ['analysis.completed']);
    await t.caller.post(`/api/webhooks/${ep.id}/test/`);
    const d = await waitForDelivery(t.caller, ep.id, (x) => x.status === 'succeeded');
    const b = env.as('adminB');
    expect((await b.get('/api/webhooks/')).body.data.map((x: { id: string }) => x.id)).not.toContain(ep.id);
    expect((await b.get(`/api/webhooks/${ep.id}/`)).status).toBe(404);
    expect((await b.patch(`/api/webhooks/${ep.id}/`, { enabled: false })).status).toBe(404);
    expect((await b.post(`/api/webhooks/${ep.id}/rotate-secret/`)).status).toBe(404);
    expect((await b.post(`/api/webhooks/${ep.id}/test/`)).status).toBe(404);
    expect((await b.get(`/api/webhooks/${ep.id}/deliveries/`)).status).toBe(404);
    expect((await b.post(`/api/webhooks/${ep.id}/deliveries/${d.id}/redeliver/`)).status).toBe(404);
    expect((await b.delete(`/api/webhooks/${ep.id}/`)).status).toBe(404);
    // Tenant B's event never reaches tenant A's endpoint (the outbox is per tenant).
    const { recordWebhookEvent } = await import('./webhooks.events.js');
    const { withScope } = await import('../../db/client.js');
    await withScope(env.deps.db, { kind: 'tenant', tenantId: env.fx.tenantB }, (tx) => recordWebhookEvent(tx, env.fx.tenantB, 'analysis.completed', { analysis_id: 'b' }));
    const [n] = await env.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = ${ep.id}`);
    expect(n!.n).toBe(1);
    expect((await t.caller.get(`/api/webhooks/${ep.id}/`)).body.data.enabled).toBe(true);
  });
});

describe('the secret', () => {
  it('is shown on create and rotate only, stored encrypted, and never logged', async () => {
    recv.status.set('/secret', 500);
    const ep = await register(t.caller, '/secret', ['farm.captured']);
    const list = await t.caller.get('/api/webhooks/');
    expect(list.raw).not.toContain(ep.secret);
    expect(list.body.data.find((x: { id: string }) => x.id === ep.id).secret_hint).toBe(`…${ep.secret.slice(-4)}`);
    expect((await t.caller.get(`/api/webhooks/${ep.id}/`)).body.data.secret).toBeUndefined();
    const rotated = await t.caller.post(`/api/webhooks/${ep.id}/rotate-secret/`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.secret).toMatch(/^whsec_/);
    expect(rotated.body.data.secret).not.toBe(ep.secret);
    // A failing delivery logs a warning: the host, never the secret.
    await t.caller.post(`/api/webhooks/${ep.id}/test/`);
    await waitForDelivery(t.caller, ep.id, (x) => x.attempts >= 1);
    const [row] = await env.sql<{ secret_enc: string }>(sql`SELECT secret_enc FROM webhook_endpoints WHERE id = ${ep.id}`);
    const secrets = [ep.secret, rotated.body.data.secret as string];
    for (const s of secrets) {
      expect(row!.secret_enc).not.toContain(s.slice(6));
      expect(JSON.stringify(env.serverLog)).not.toContain(s.slice(6));
    }
    expect(env.serverLog.some((l) => l.msg === 'webhook attempt failed')).toBe(true);
    const logs = await env.sql<{ description: string }>(sql`SELECT description FROM activity_logs WHERE tenant_id = ${t.tenantId}`);
    for (const s of secrets) expect(JSON.stringify(logs)).not.toContain(s.slice(6));
  });
});

// ---------- events beyond the capture's own farm (issue 32 follow-up) ----------

type Body = { type: string; data: Record<string, unknown> };
const bodiesAt = (path: string): Body[] => recv.received.filter((r) => r.path === path).map((r) => JSON.parse(r.body) as Body);

/** A farmer of tenant t and an agent session that captures for it. */
async function capturer() {
  const [f] = await env.sql<{ id: string }>(sql`
    INSERT INTO farmers (tenant_id, first_name, last_name, folio_id) VALUES (${t.tenantId}, 'Verdict', 'Farmer', ${`HOOK-${Date.now()}-${Math.random()}`}) RETURNING id`);
  const agent = await env.sessionFor((await makeUser(env, { tenantId: t.tenantId, role: 'agent' })).id);
  const capture = async (ring: Ring) => {
    const res = await agent.post('/api/farms/', { farmer_id: f!.id, coordinates: ring });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data as { id: string; overlap_group_id: string | null };
  };
  const rewalk = async (id: string, ring: Ring) => {
    const res = await agent.put(`/api/farms/${id}/`, { coordinates: ring });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  return { farmerId: f!.id, capture, rewalk };
}

const layerFile = (rings: Ring[]) =>
  Buffer.from(JSON.stringify({ type: 'FeatureCollection', features: rings.map((r, i) => ({ type: 'Feature', properties: { name: `L${i}` }, geometry: { type: 'Polygon', coordinates: [r] } })) }));

const lossDetails = { name: 'Loss after 2020', kind: 'tree_cover_loss', reference_date: '2024-12-31', source: 'Synthetic test layer', licence: 'CC0-1.0' };

async function uploadLayer(caller: Caller, url: string, fields: Record<string, string>, rings: Ring[]) {
  const body = multipart(fields, [{ field: 'file', filename: 'layer.geojson', content: layerFile(rings) }]);
  const res = await caller.request({ method: 'POST', url, payload: body.payload, headers: body.headers });
  expect(res.status, res.raw).toBe(202);
  return res.body.data.id as string;
}

/** Waits until the layer's load and screening have ended (ready). */
async function layerReady(caller: Caller, base: string, id: string) {
  await expect
    .poll(async () => (await caller.get(`${base}${id}/progress/`)).body.data.status, { timeout: 60_000, interval: 100 })
    .toBe('ready');
}

/** Waits for the n-th farm.verdict_changed event of a farm at a path; returns it. */
async function nthVerdict(path: string, farmId: string, n: number): Promise<Record<string, unknown>> {
  const of = () => bodiesAt(path).filter((b) => b.type === 'farm.verdict_changed' && b.data['farm_id'] === farmId);
  await expect.poll(() => of().length, { timeout: 60_000, interval: 100 }).toBeGreaterThanOrEqual(n);
  return of()[n - 1]!.data;
}

describe('farm.verdict_changed after reference-layer and threshold changes', () => {
  it('reaches the tenant for each farm whose verdict changed (load, thresholds, replace, re-walk, delete), and nothing for the others', async () => {
    const b = env.as('adminB');
    const bEp = await b.post('/api/webhooks/', { url: recv.url('/b-verdicts'), events: ['farm.verdict_changed', 'farm.overlap_group_joined', 'farm.captured'] });
    expect(bEp.status, JSON.stringify(bEp.body)).toBe(201);
    await register(t.caller, '/verdicts', ['farm.verdict_changed']);
    const reset = await t.caller.put('/api/reference-layers/risk-settings/', PLOT_RISK_DEFAULTS);
    expect(reset.status, reset.raw).toBe(200);
    const { farmerId, capture, rewalk } = await capturer();
    const hit = await capture(square(30.1, 10.1));
    const walked = await capture(square(30.1, 10.1005));
    const away = await capture(square(30.2, 10.2));
    const base = '/api/reference-layers/';

    // Tree-cover loss over the whole of one farm: its verdict becomes high (the other farm's stays as it was).
    const layerId = await uploadLayer(t.caller, base, lossDetails, [rect(30.099, 10.099, 30.102, 10.102)]);
    await layerReady(t.caller, base, layerId);
    const first = await nthVerdict('/verdicts', hit.id, 1);
    expect(first).toMatchObject({ farm_id: hit.id, farmer_id: farmerId, verdict: 'high' });
    expect(first['previous_verdict']).not.toBe('high');
    const low = first['previous_verdict'];
    expect((await t.caller.get(`/api/farms/${hit.id}/screening/`)).body.data.verdict.level).toBe('high');

    // A threshold no share can pass: the loss no longer counts; back to the defaults: high again.
    expect((await t.caller.put('/api/reference-layers/risk-settings/', { eudr_loss_high_share: 1 })).status).toBe(200);
    expect(await nthVerdict('/verdicts', hit.id, 2)).toMatchObject({ previous_verdict: 'high', verdict: low });
    expect((await t.caller.put('/api/reference-layers/risk-settings/', PLOT_RISK_DEFAULTS)).status).toBe(200);
    expect(await nthVerdict('/verdicts', hit.id, 3)).toMatchObject({ previous_verdict: low, verdict: 'high' });

    // A replacement that no longer covers the farm, then one that does.
    const replace = async (rings: Ring[]) => {
      const body = multipart({}, [{ field: 'file', filename: 'layer.geojson', content: layerFile(rings) }]);
      const res = await t.caller.request({ method: 'POST', url: `${base}${layerId}/replace/`, payload: body.payload, headers: body.headers });
      expect(res.status, res.raw).toBe(202);
      await layerReady(t.caller, base, layerId);
    };
    await replace([rect(30.5, 10.5, 30.501, 10.501)]);
    expect(await nthVerdict('/verdicts', hit.id, 4)).toMatchObject({ previous_verdict: 'high', verdict: low });
    await replace([rect(30.099, 10.099, 30.102, 10.102)]);
    expect(await nthVerdict('/verdicts', hit.id, 5)).toMatchObject({ previous_verdict: low, verdict: 'high' });
    expect(await nthVerdict('/verdicts', walked.id, 5)).toMatchObject({ previous_verdict: low, verdict: 'high' });

    // A re-walk out of the layer: the event comes from the re-walk's own transaction, against the stored verdict.
    await rewalk(walked.id, square(30.15, 10.15));
    expect(await nthVerdict('/verdicts', walked.id, 6)).toMatchObject({ previous_verdict: 'high', verdict: low });

    // Deleting the layer takes its figures: the verdict goes back.
    expect((await t.caller.delete(`${base}${layerId}/`)).status).toBe(200);
    expect(await nthVerdict('/verdicts', hit.id, 6)).toMatchObject({ previous_verdict: 'high', verdict: low });

    // The stored verdicts follow, and the sweeps are done: the farm away from the layer raised nothing.
    await expect.poll(async () => (await env.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM farm_verdict_sweeps WHERE tenant_id = ${t.tenantId}`))[0]!.n, { timeout: 30_000 }).toBe(0);
    const stored = await env.sql<{ farm_id: string; verdict: string }>(sql`SELECT farm_id, verdict FROM farm_verdicts WHERE farm_id IN (${hit.id}, ${away.id})`);
    expect(stored.find((r) => r.farm_id === hit.id)?.verdict).toBe(low);
    expect(stored.find((r) => r.farm_id === away.id)).toBeDefined();
    expect(bodiesAt('/verdicts').filter((x) => x.data['farm_id'] === away.id)).toEqual([]);
    expect(bodiesAt('/verdicts').filter((x) => x.data['farm_id'] === hit.id)).toHaveLength(6);
    // The re-walked farm was no longer under the layer when it was deleted: nothing more for it.
    expect(bodiesAt('/verdicts').filter((x) => x.data['farm_id'] === walked.id)).toHaveLength(6);
    // Tenant B's endpoint got none of tenant t's events.
    expect(bodiesAt('/b-verdicts').filter((x) => [hit.id, walked.id, away.id].includes(x.data['farm_id'] as string))).toEqual([]);
    await b.delete(`/api/webhooks/${bEp.body.data.id}/`);
  });

  it("a provider layer raises the event for each tenant's own farms, to that tenant only", async () => {
    const b = env.as('adminB');
    const bEp = await b.post('/api/webhooks/', { url: recv.url('/b-provider'), events: ['farm.verdict_changed'] });
    expect(bEp.status, JSON.stringify(bEp.body)).toBe(201);
    await register(t.caller, '/provider', ['farm.verdict_changed']);
    const reset = await t.caller.put('/api/reference-layers/risk-settings/', PLOT_RISK_DEFAULTS);
    expect(reset.status, reset.raw).toBe(200);
    const { capture } = await capturer();
    const farm = await capture(square(31.1, 11.1));
    const base = '/api/base/reference-layers/';
    const layerId = await uploadLayer(env.as('super'), base, { ...lossDetails, name: 'Provider loss' }, [rect(31.099, 11.099, 31.102, 11.102)]);
    await layerReady(env.as('super'), base, layerId);
    const first = await nthVerdict('/provider', farm.id, 1);
    expect(first).toMatchObject({ farm_id: farm.id, verdict: 'high' });
    expect((await env.as('super').delete(`${base}${layerId}/`)).status).toBe(200);
    expect(await nthVerdict('/provider', farm.id, 2)).toMatchObject({ previous_verdict: 'high', verdict: first['previous_verdict'] });
    expect(bodiesAt('/b-provider').filter((x) => x.data['farm_id'] === farm.id)).toEqual([]);
    // Every body at tenant t's endpoint is about t's farms.
    const own = await env.sql<{ id: string }>(sql`SELECT id FROM farms WHERE tenant_id = ${t.tenantId}`);
    const ownIds = new Set(own.map((r) => r.id));
    expect(bodiesAt('/provider').every((x) => ownIds.has(x.data['farm_id'] as string))).toBe(true);
    await b.delete(`/api/webhooks/${bEp.body.data.id}/`);
  });
});

describe('farm.overlap_group_joined when a capture merges two groups', () => {
  it('reaches the farms of the absorbed group too, with their new and former group', async () => {
    await register(t.caller, '/groups', ['farm.overlap_group_joined']);
    const { capture } = await capturer();
    // Two groups side by side (each two overlapping farms), then a farm across both.
    const x1 = await capture(square(32.1, 12.1, 0.002));
    const x2 = await capture(square(32.101, 12.1, 0.002));
    const y1 = await capture(square(32.105, 12.1, 0.002));
    const y2 = await capture(square(32.106, 12.1, 0.002));
    const groupOf = async (ids: string[]) =>
      new Map((await env.sql<{ id: string; g: string | null }>(sql`SELECT id, overlap_group_id AS g FROM farms WHERE id IN (${sql.join(ids.map((i) => sql`${i}::uuid`), sql`, `)})`)).map((r) => [r.id, r.g]));
    const members = [x1.id, x2.id, y1.id, y2.id];
    const before = await groupOf(members);
    expect(new Set(before.values()).size).toBe(2);
    const bridge = await capture(rect(32.102, 12.1005, 32.1055, 12.1015));
    const after = await groupOf(members);
    expect(new Set(after.values())).toEqual(new Set([bridge.overlap_group_id]));
    const moved = members.filter((id) => before.get(id) !== after.get(id));
    // Two groups became one: at least the absorbed group's two farms changed group.
    expect(moved.length).toBeGreaterThanOrEqual(2);
    const caused = () => bodiesAt('/groups').filter((x) => x.data['caused_by_farm_id'] === bridge.id);
    await expect.poll(() => caused().length, { timeout: 30_000 }).toBe(moved.length + 1);
    expect(caused().map((x) => x.data['farm_id']).sort()).toEqual([...moved, bridge.id].sort());
    for (const id of moved) {
      expect(caused().find((x) => x.data['farm_id'] === id)!.data).toMatchObject({ overlap_group_id: bridge.overlap_group_id, previous_overlap_group_id: before.get(id) });
    }
  });
});

describe('delivery log retention', () => {
  it('prunes finished deliveries older than WEBHOOK_DELIVERY_RETENTION_DAYS; pending and recent ones stay', async () => {
    const ep = await register(t.caller, '/retention', ['farm.captured']);
    expect(env.deps.config.webhooks.retentionDays).toBe(30);
    const scope = { kind: 'tenant', tenantId: t.tenantId } as const;
    const make = async (label: string, status: string, ageDays: number) =>
      withScope(env.deps.db, scope, async (tx) => {
        const rows = await tx.execute(sql`
          WITH ev AS (INSERT INTO webhook_events (tenant_id, type, body, created_at) VALUES (${t.tenantId}, 'webhook.test', ${label}, now() - make_interval(days => ${ageDays})) RETURNING id),
               d AS (INSERT INTO webhook_deliveries (tenant_id, endpoint_id, event_id, status, attempts, created_at, last_attempt_at, next_attempt_at)
                     SELECT ${t.tenantId}, ${ep.id}, ev.id, ${status}, 1, now() - make_interval(days => ${ageDays}), now() - make_interval(days => ${ageDays}),
                            CASE WHEN ${status} = 'pending' THEN now() + interval '1 day' END FROM ev RETURNING id)
          INSERT INTO webhook_attempts (delivery_id, attempt, tenant_id, outcome, duration_ms, at) SELECT d.id, 1, ${t.tenantId}, 'failed', 5, now() - make_interval(days => ${ageDays}) FROM d RETURNING delivery_id`);
        return ((rows as unknown as { rows: Array<{ delivery_id: string }> }).rows[0]!).delivery_id;
      });
    const ids = {
      oldDelivered: await make('old delivered', 'succeeded', 40),
      oldFailed: await make('old failed', 'failed', 31),
      oldPending: await make('old pending', 'pending', 40),
      recentDelivered: await make('recent delivered', 'succeeded', 29),
      recentFailed: await make('recent failed', 'failed', 1),
    };
    const removed = await pruneDeliveries(env.deps, 1);
    expect(removed.deliveries).toBeGreaterThanOrEqual(2);
    const left = await env.sql<{ id: string }>(sql`SELECT id FROM webhook_deliveries WHERE endpoint_id = ${ep.id}`);
    expect(left.map((r) => r.id).sort()).toEqual([ids.oldPending, ids.recentDelivered, ids.recentFailed].sort());
    const attempts = await env.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM webhook_attempts WHERE delivery_id IN (${ids.oldDelivered}, ${ids.oldFailed})`);
    expect(attempts[0]!.n).toBe(0);
    const events = await env.sql<{ body: string }>(sql`SELECT body FROM webhook_events WHERE tenant_id = ${t.tenantId} AND body IN ('old delivered', 'old failed', 'old pending', 'recent delivered', 'recent failed')`);
    expect(events.map((e) => e.body).sort()).toEqual(['old pending', 'recent delivered', 'recent failed']);
    // The log through the API shows the same.
    const log = await t.caller.get(`/api/webhooks/${ep.id}/deliveries/`);
    expect(log.body.data.results.map((d: { id: string }) => d.id).sort()).toEqual([ids.oldPending, ids.recentDelivered, ids.recentFailed].sort());
  });
});
