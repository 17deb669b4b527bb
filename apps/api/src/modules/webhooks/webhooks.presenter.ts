// Webhook rows → API shapes: an explicit whitelist. The secret (and its ciphertext) never leaves, except the one
// answer of a create or a rotation, which adds it to this shape.
import type { WebhookDelivery, WebhookEndpoint, WebhookEventType } from '@farmland/contracts';
import type { DeliveryRow, EndpointRow } from './webhooks.queries.js';

const iso = (v: Date | string | null): string | null => (v === null ? null : new Date(v).toISOString());

export function presentEndpoint(r: EndpointRow): WebhookEndpoint {
  return {
    id: r.id,
    url: r.url,
    description: r.description,
    events: r.events as WebhookEventType[],
    enabled: r.enabled,
    secret_hint: r.secret_hint,
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
  };
}

export function presentDelivery(r: DeliveryRow): WebhookDelivery {
  return {
    id: r.id,
    endpoint_id: r.endpoint_id,
    event_id: r.event_id,
    event_type: r.event_type,
    status: r.status,
    attempts: r.attempts,
    response_code: r.response_code,
    duration_ms: r.duration_ms,
    error: r.error,
    next_attempt_at: iso(r.next_attempt_at),
    last_attempt_at: iso(r.last_attempt_at),
    created_at: iso(r.created_at)!,
    history: (r.history ?? []).map((a) => ({
      attempt: a.attempt,
      at: iso(a.at)!,
      outcome: a.outcome,
      response_code: a.response_code,
      duration_ms: a.duration_ms,
      error: a.error,
    })),
  };
}
