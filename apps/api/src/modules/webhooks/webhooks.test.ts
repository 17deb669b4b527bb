// Tenant webhooks through the API (issue 32, part 3): an analysis.completed event reaches a receiver on 127.0.0.1
// (allow-listed for this file) and its signature verifies with the Standard Webhooks reference library; a receiver that
// answers 500 gets retries that show in the delivery log, and a redelivery is a new attempt; private addresses are
// refused with a 400 naming url; agents and SDK keys cannot manage webhooks; tenant B cannot see or change tenant A's;
// the secret is shown once and never logged. Tests wait on the delivery log's state, never on time.
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { sha256 } from '../../lib/crypto.js';
import { square } from '../../test/analysis-fixtures.js';
import { makeUser } from '../../test/fixtures.js';
import { checkWebhookUrl, embeddedV4, isPrivateAddress } from './webhooks.address.js';
import { nextDelaySeconds, RETRY_SCHEDULE_SECONDS } from './webhooks.job.js';
import { signature } from './webhooks.send.js';
import { env, recv, register, t, waitForDelivery, webhookSuite } from '../../test/webhooks-suite.js';

webhookSuite();

describe('delivery', () => {
  it('sends a signed analysis.completed event that verifies with the Standard Webhooks library', async () => {
    const ep = await register(t.caller, '/completed', ['analysis.completed', 'analysis.failed']);
    expect(ep.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const res = await t.caller.post('/api/custom-analysis/', {
      name: 'Hooked analysis',
      operational_areas: t.areaIds,
      require_farm_recognition: false,
      locations: [
        { farm_name: 'One', farm_coordinates: square(20.1, 20.1) },
        { farm_name: 'Two', farm_coordinates: square(20.2, 20.2) },
      ],
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
    expect(
      byType('farm.captured')
        .map((b) => b.data['farm_id'])
        .sort(),
    ).toEqual([one.body.data.id, two.body.data.id].sort());
    expect(byType('farm.captured')[0]!.data).toMatchObject({ farmer_id: f!.id });
    const joined = byType('farm.overlap_group_joined').map((b) => b.data);
    expect(joined).toHaveLength(2);
    expect(joined).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          farm_id: two.body.data.id,
          overlap_group_id: two.body.data.overlap_group_id,
          previous_overlap_group_id: null,
          caused_by_farm_id: two.body.data.id,
        }),
        expect.objectContaining({
          farm_id: one.body.data.id,
          farmer_id: f!.id,
          overlap_group_id: two.body.data.overlap_group_id,
          previous_overlap_group_id: null,
          caused_by_farm_id: two.body.data.id,
        }),
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
    for (const url of [
      'https://10.0.0.1/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/hook',
      'https://[::ffff:10.0.0.1]/hook',
      'https://100.64.1.1/x',
      'https://[fd00::1]/x',
    ]) {
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
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.31.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.100.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'ff02::1',
      '::ffff:10.0.0.1',
      '64:ff9b::a00:1',
      '2002:7f00:1::1',
    ]) {
      expect(isPrivateAddress(a), a).toBe(true);
    }
    for (const a of ['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8']) expect(isPrivateAddress(a), a).toBe(false);
    expect(embeddedV4('::ffff:7f00:1')).toBe('127.0.0.1');
    // A name with one public and one private address is refused (no pick-the-good-one).
    const mixed = await checkWebhookUrl('https://mixed.example/x', [], async () => [
      { address: '93.184.215.14', family: 4 },
      { address: '10.0.0.5', family: 4 },
    ]);
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
    await env.sql(
      sql`INSERT INTO licenses (tenant_id, type, issued_date, expiry_date, key_hash, key_hint) VALUES (${t.tenantId}, 'SDK', '2021-01-01', '2099-01-01', ${sha256(key)}, ${key.slice(0, 10)})`,
    );
    expect((await env.as('anonymous').get('/api/webhooks/', { 'x-license-key': key })).status).toBe(401);
    expect(
      (await env.as('anonymous').post('/api/webhooks/', { url: 'https://93.184.215.14/x', events: ['farm.captured'] }, { 'x-license-key': key })).status,
    ).toBe(401);
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
    await withScope(env.deps.db, { kind: 'tenant', tenantId: env.fx.tenantB }, (tx) =>
      recordWebhookEvent(tx, env.fx.tenantB, 'analysis.completed', { analysis_id: 'b' }),
    );
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
