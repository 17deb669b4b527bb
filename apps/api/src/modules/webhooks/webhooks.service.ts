// Webhook use cases (issue 32, part 3): a tenant admin's endpoints (list, create with the secret shown once, update,
// rotate the secret, delete), an endpoint's delivery log, a redelivery and a test event. A URL is checked when it is
// registered or changed (400 naming url when it is not https, or resolves to a private address the operator did not
// allow) and again at every delivery (webhooks.job.ts).
import type {
  CreateWebhookBody,
  UpdateWebhookBody,
  WebhookDelivery,
  WebhookDeliveryListQuery,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
} from '@farmland/contracts';
import { requireActor, type Ctx, type Deps } from '../../context.js';
import { withScope } from '../../db/client.js';
import { paginate, type Page } from '../../db/pagination.js';
import { decrypt, encrypt } from '../../lib/crypto.js';
import { authorize } from '../../lib/policy.js';
import { Problem, problems } from '../../lib/problems.js';
import { recordActivity } from '../activity/activity.service.js';
import { checkWebhookUrl } from './webhooks.address.js';
import { recordTestEvent } from './webhooks.events.js';
import { webhooksPolicy } from './webhooks.policy.js';
import { presentDelivery, presentEndpoint } from './webhooks.presenter.js';
import * as q from './webhooks.queries.js';
import { newSecret } from './webhooks.send.js';

/** Endpoints one tenant may register. */
export const MAX_ENDPOINTS = 20;

const grant = (ctx: Ctx) => {
  const g = authorize(ctx, webhooksPolicy, 'manage');
  return { tenantId: g.tenantId, scope: { kind: 'tenant', tenantId: g.tenantId } as const };
};

const hintOf = (secret: string) => `…${secret.slice(-4)}`;

async function checkUrl(deps: Deps, url: string): Promise<void> {
  const checked = await checkWebhookUrl(url, deps.config.webhooks.allowedHosts);
  if (!checked.ok) throw problems.field('url', checked.reason);
}

/** The host for the activity log: never the path or query, which may carry a receiver's token. */
const hostOf = (url: string) => new URL(url).host;

export async function listEndpoints(deps: Deps, ctx: Ctx): Promise<WebhookEndpoint[]> {
  const { tenantId, scope } = grant(ctx);
  const rows = await withScope(deps.db, scope, (tx) => q.listEndpoints(tx, tenantId));
  return rows.map(presentEndpoint);
}

export async function getEndpoint(deps: Deps, ctx: Ctx, id: string): Promise<WebhookEndpoint> {
  const { tenantId, scope } = grant(ctx);
  const row = await withScope(deps.db, scope, (tx) => q.findEndpoint(tx, tenantId, id));
  if (!row) throw problems.notFound('Webhook endpoint');
  return presentEndpoint(row);
}

export async function createEndpoint(deps: Deps, ctx: Ctx, body: CreateWebhookBody): Promise<WebhookEndpointWithSecret> {
  const { tenantId, scope } = grant(ctx);
  const actor = requireActor(ctx);
  await checkUrl(deps, body.url);
  const secret = newSecret();
  const row = await withScope(deps.db, scope, async (tx) => {
    if ((await q.countEndpoints(tx, tenantId)) >= MAX_ENDPOINTS) {
      throw new Problem(409, 'webhook_limit_reached', `An organisation can register at most ${MAX_ENDPOINTS} webhook endpoints. Delete one first.`);
    }
    const r = await q.insertEndpoint(tx, tenantId, {
      url: body.url,
      description: body.description ?? null,
      events: body.events,
      secretEnc: encrypt(deps.keys.encryption, secret),
      secretHint: hintOf(secret),
      enabled: body.enabled ?? true,
      createdBy: actor.userId,
    });
    await recordActivity(tx, ctx, {
      action: 'Create',
      description: `${actor.name} registered a webhook endpoint on ${hostOf(body.url)} (${body.events.join(', ')})`,
    });
    return r;
  });
  return { ...presentEndpoint(row), secret };
}

export async function updateEndpoint(deps: Deps, ctx: Ctx, id: string, body: UpdateWebhookBody): Promise<WebhookEndpoint> {
  const { tenantId, scope } = grant(ctx);
  const actor = requireActor(ctx);
  const before = await withScope(deps.db, scope, (tx) => q.findEndpoint(tx, tenantId, id));
  if (!before) throw problems.notFound('Webhook endpoint');
  if (body.url !== undefined) await checkUrl(deps, body.url);
  const row = await withScope(deps.db, scope, async (tx) => {
    const r = await q.updateEndpoint(tx, tenantId, id, { url: body.url, description: body.description, events: body.events, enabled: body.enabled });
    if (!r) throw problems.notFound('Webhook endpoint');
    const what = [
      body.url !== undefined ? `URL to ${hostOf(body.url)}` : null,
      body.events !== undefined ? `events to ${body.events.join(', ')}` : null,
      body.enabled !== undefined ? (body.enabled ? 'enabled it' : 'disabled it') : null,
      body.description !== undefined ? 'description' : null,
    ].filter(Boolean);
    await recordActivity(tx, ctx, { action: 'Update', description: `${actor.name} changed the webhook endpoint on ${hostOf(r.url)}: ${what.join(', ')}` });
    return r;
  });
  return presentEndpoint(row);
}

export async function rotateSecret(deps: Deps, ctx: Ctx, id: string): Promise<WebhookEndpointWithSecret> {
  const { tenantId, scope } = grant(ctx);
  const actor = requireActor(ctx);
  const secret = newSecret();
  const row = await withScope(deps.db, scope, async (tx) => {
    const r = await q.updateEndpoint(tx, tenantId, id, { secretEnc: encrypt(deps.keys.encryption, secret), secretHint: hintOf(secret) });
    if (!r) throw problems.notFound('Webhook endpoint');
    await recordActivity(tx, ctx, { action: 'Update', description: `${actor.name} rotated the signing secret of the webhook endpoint on ${hostOf(r.url)}` });
    return r;
  });
  return { ...presentEndpoint(row), secret };
}

export async function deleteEndpoint(deps: Deps, ctx: Ctx, id: string): Promise<void> {
  const { tenantId, scope } = grant(ctx);
  const actor = requireActor(ctx);
  await withScope(deps.db, scope, async (tx) => {
    const r = await q.findEndpoint(tx, tenantId, id, { lock: true });
    if (!r) throw problems.notFound('Webhook endpoint');
    await q.deleteEndpoint(tx, tenantId, id);
    await recordActivity(tx, ctx, { action: 'Delete', description: `${actor.name} deleted the webhook endpoint on ${hostOf(r.url)}` });
  });
}

export async function listDeliveries(deps: Deps, ctx: Ctx, id: string, query: WebhookDeliveryListQuery, url: string): Promise<Page<WebhookDelivery>> {
  const { tenantId, scope } = grant(ctx);
  const size = query.page_size ?? 20;
  if ((query.page - 1) * size >= 10_000) throw problems.field('page', 'A page must start within the first 10,000 deliveries');
  const { rows, count } = await withScope(deps.db, scope, async (tx) => {
    if (!(await q.findEndpoint(tx, tenantId, id))) throw problems.notFound('Webhook endpoint');
    return q.listDeliveries(tx, tenantId, id, { status: query.status, limit: size, offset: (query.page - 1) * size });
  });
  return paginate(rows.map(presentDelivery), count, query.page, size, url);
}

export async function redeliver(deps: Deps, ctx: Ctx, id: string, deliveryId: string): Promise<WebhookDelivery> {
  const { tenantId, scope } = grant(ctx);
  const actor = requireActor(ctx);
  return withScope(deps.db, scope, async (tx) => {
    const endpoint = await q.findEndpoint(tx, tenantId, id);
    const d = endpoint ? await q.findDelivery(tx, tenantId, id, deliveryId) : null;
    if (!endpoint || !d) throw problems.notFound('Webhook delivery');
    if (!(await q.requeueDelivery(tx, tenantId, id, deliveryId))) {
      throw new Problem(409, 'webhook_delivery_in_progress', 'This delivery is being sent now; redeliver it once this attempt has finished.');
    }
    await recordActivity(tx, ctx, { action: 'Update', description: `${actor.name} redelivered a ${d.event_type} webhook to ${hostOf(endpoint.url)}` });
    return presentDelivery((await q.findDelivery(tx, tenantId, id, deliveryId))!);
  });
}

export async function sendTest(deps: Deps, ctx: Ctx, id: string): Promise<{ event_id: string }> {
  const { tenantId, scope } = grant(ctx);
  const actor = requireActor(ctx);
  return withScope(deps.db, scope, async (tx) => {
    const endpoint = await q.findEndpoint(tx, tenantId, id);
    if (!endpoint) throw problems.notFound('Webhook endpoint');
    const eventId = await recordTestEvent(tx, tenantId, id);
    await recordActivity(tx, ctx, { action: 'Create', description: `${actor.name} sent a test webhook to ${hostOf(endpoint.url)}` });
    return { event_id: eventId! };
  });
}

/** The endpoint's secret, for the job only. */
export const secretOf = (deps: Deps, secretEnc: string): string => decrypt(deps.keys.encryption, secretEnc);
