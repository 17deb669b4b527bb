// The events other modules raise (analyses, farms): recorded in the caller's transaction, so an event exists exactly when
// the change that caused it committed (the outbox). The body is fixed here, once: every attempt sends the same bytes.
// data carries only the raising tenant's own ids and a summary (docs/decisions/0075-webhooks.md, "Payloads").
import type { WebhookEventType } from '@farmland/contracts';
import type { Executor } from '../../db/client.js';
import { insertEvent, insertEvents } from './webhooks.queries.js';

export type WebhookData = Record<string, string | number | boolean | null>;

const bodyOf = (type: string, data: WebhookData) => JSON.stringify({ type, timestamp: new Date().toISOString(), data });

/** Records an event for the tenant's subscribed endpoints; nothing is written when none subscribed. */
export async function recordWebhookEvent(tx: Executor, tenantId: string, type: WebhookEventType, data: WebhookData): Promise<void> {
  await insertEvent(tx, tenantId, type, () => bodyOf(type, data));
}

/** Many events of one type for the tenant's subscribed endpoints, in one statement; returns how many were written. */
export async function recordWebhookEvents(tx: Executor, tenantId: string, type: WebhookEventType, data: readonly WebhookData[]): Promise<number> {
  return insertEvents(
    tx,
    tenantId,
    type,
    data.map((d) => () => bodyOf(type, d)),
  );
}

/** The test event, for one endpoint whatever it subscribed to. */
export async function recordTestEvent(tx: Executor, tenantId: string, endpointId: string): Promise<string | null> {
  return insertEvent(tx, tenantId, 'webhook.test', (id) => bodyOf('webhook.test', { endpoint_id: endpointId, event_id: id }), endpointId);
}
