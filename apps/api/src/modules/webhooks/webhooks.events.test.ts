// Webhook events beyond the capture's own farm (issue 32 follow-up): farm.verdict_changed after reference-layer loads,
// replacements, deletions and threshold changes (to the owning tenant only); farm.overlap_group_joined for the farms of
// an absorbed group; the delivery log's retention. Tests wait on the delivery log's state, never on time.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { PLOT_RISK_DEFAULTS } from '@farmland/contracts';
import { rect, square, type Ring } from '../../test/analysis-fixtures.js';
import { withScope } from '../../db/client.js';
import { makeUser, verdictSweepsDone } from '../../test/fixtures.js';
import { multipart } from '../../test/geo-fixtures.js';
import { type Caller } from '../../test/harness.js';
import { pruneDeliveries } from './webhooks.job.js';
import { env, recv, register, t, webhookSuite } from '../../test/webhooks-suite.js';
webhookSuite();

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
  Buffer.from(
    JSON.stringify({
      type: 'FeatureCollection',
      features: rings.map((r, i) => ({ type: 'Feature', properties: { name: `L${i}` }, geometry: { type: 'Polygon', coordinates: [r] } })),
    }),
  );

const lossDetails = { name: 'Loss after 2020', kind: 'tree_cover_loss', reference_date: '2024-12-31', source: 'Synthetic test layer', licence: 'CC0-1.0' };

async function uploadLayer(caller: Caller, url: string, fields: Record<string, string>, rings: Ring[]) {
  const body = multipart(fields, [{ field: 'file', filename: 'layer.geojson', content: layerFile(rings) }]);
  const res = await caller.request({ method: 'POST', url, payload: body.payload, headers: body.headers });
  expect(res.status, res.raw).toBe(202);
  return res.body.data.id as string;
}

/** Waits until the layer's load and screening have ended (ready). */
async function layerReady(caller: Caller, base: string, id: string) {
  await expect.poll(async () => (await caller.get(`${base}${id}/progress/`)).body.data.status, { timeout: 60_000, interval: 100 }).toBe('ready');
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
    const bEp = await b.post('/api/webhooks/', {
      url: recv.url('/b-verdicts'),
      events: ['farm.verdict_changed', 'farm.overlap_group_joined', 'farm.captured'],
    });
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
    await verdictSweepsDone(env, [t.tenantId]);
    const stored = await env.sql<{ farm_id: string; verdict: string }>(
      sql`SELECT farm_id, verdict FROM farm_verdicts WHERE farm_id IN (${hit.id}, ${away.id})`,
    );
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
      new Map(
        (
          await env.sql<{ id: string; g: string | null }>(
            sql`SELECT id, overlap_group_id AS g FROM farms WHERE id IN (${sql.join(
              ids.map((i) => sql`${i}::uuid`),
              sql`, `,
            )})`,
          )
        ).map((r) => [r.id, r.g]),
      );
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
    expect(
      caused()
        .map((x) => x.data['farm_id'])
        .sort(),
    ).toEqual([...moved, bridge.id].sort());
    for (const id of moved) {
      expect(caused().find((x) => x.data['farm_id'] === id)!.data).toMatchObject({
        overlap_group_id: bridge.overlap_group_id,
        previous_overlap_group_id: before.get(id),
      });
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
        return (rows as { rows: Array<{ delivery_id: string }> }).rows[0]!.delivery_id;
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
    const attempts = await env.sql<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM webhook_attempts WHERE delivery_id IN (${ids.oldDelivered}, ${ids.oldFailed})`,
    );
    expect(attempts[0]!.n).toBe(0);
    const events = await env.sql<{ body: string }>(
      sql`SELECT body FROM webhook_events WHERE tenant_id = ${t.tenantId} AND body IN ('old delivered', 'old failed', 'old pending', 'recent delivered', 'recent failed')`,
    );
    expect(events.map((e) => e.body).sort()).toEqual(['old pending', 'recent delivered', 'recent failed']);
    // The log through the API shows the same.
    const log = await t.caller.get(`/api/webhooks/${ep.id}/deliveries/`);
    expect(log.body.data.results.map((d: { id: string }) => d.id).sort()).toEqual([ids.oldPending, ids.recentDelivered, ids.recentFailed].sort());
  });
});
