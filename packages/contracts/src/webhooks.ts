// Tenant webhooks (issue 32, part 3): endpoints a tenant admin registers in Configurations, the events they receive,
// and the delivery log. Payloads are signed as the Standard Webhooks specification says (docs/decisions/0075-webhooks.md).
import { z } from 'zod';
import { emptyToUndefined, listOf, pageNumber, pageSize, text, uuid } from './common.js';

/** Every event a tenant can subscribe to. */
export const WEBHOOK_EVENT_TYPES = ['analysis.completed', 'analysis.failed', 'farm.captured', 'farm.overlap_group_joined', 'farm.verdict_changed'] as const;
export const webhookEventType = z.enum(WEBHOOK_EVENT_TYPES);
export type WebhookEventType = z.infer<typeof webhookEventType>;

/** The test event sent by POST /webhooks/{id}/test/ (never subscribed to; always delivered to that endpoint only). */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

const webhookUrl = text()
  .trim()
  .min(1, 'Enter the URL the events are sent to')
  .max(2000, 'The URL is at most 2000 characters')
  .refine((v) => {
    try {
      const u = new URL(v);
      return u.protocol === 'https:' || u.protocol === 'http:';
    } catch {
      return false;
    }
  }, 'Enter an absolute http(s) URL, e.g. https://example.org/hooks/farmland');

const events = z
  .array(webhookEventType, { error: `Choose events among ${WEBHOOK_EVENT_TYPES.join(', ')}` })
  .min(1, 'Choose at least one event')
  .max(WEBHOOK_EVENT_TYPES.length)
  .transform((v) => [...new Set(v)]);

export const createWebhookBody = z
  .object({
    url: webhookUrl,
    events,
    description: text().trim().max(200).optional(),
    enabled: z.boolean().optional(),
  })
  .strict();
export type CreateWebhookBody = z.infer<typeof createWebhookBody>;

export const updateWebhookBody = z
  .object({
    url: webhookUrl,
    events,
    description: text().trim().max(200).nullable(),
    enabled: z.boolean(),
  })
  .partial()
  .strict()
  .refine((v) => Object.values(v).some((x) => x !== undefined), 'Send url, events, description or enabled');
export type UpdateWebhookBody = z.infer<typeof updateWebhookBody>;

export const webhookEndpoint = z.object({
  id: uuid,
  url: z.string(),
  description: z.string().nullable(),
  events: z.array(webhookEventType),
  enabled: z.boolean(),
  /** The secret's last characters, to tell endpoints apart; the secret itself is shown once (create and rotate). */
  secret_hint: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpoint>;

/** Create and rotate answer with the secret, once: `whsec_` + base64 of 32 random bytes. */
export const webhookEndpointWithSecret = webhookEndpoint.extend({ secret: z.string() });
export type WebhookEndpointWithSecret = z.infer<typeof webhookEndpointWithSecret>;

export const webhookDeliveryStatus = z.enum(['pending', 'sending', 'succeeded', 'failed']);
export type WebhookDeliveryStatus = z.infer<typeof webhookDeliveryStatus>;

export const webhookAttempt = z.object({
  attempt: z.number().int(),
  at: z.string(),
  /** succeeded (2xx), failed (another answer, a timeout, a network error) or refused (the address is not allowed). */
  outcome: z.enum(['succeeded', 'failed', 'refused']),
  response_code: z.number().int().nullable(),
  duration_ms: z.number().int(),
  error: z.string().nullable(),
});
export type WebhookAttempt = z.infer<typeof webhookAttempt>;

export const webhookDelivery = z.object({
  id: uuid,
  endpoint_id: uuid,
  /** The Standard Webhooks message id (webhook-id header): the same on every retry and redelivery of this event. */
  event_id: uuid,
  event_type: z.string(),
  status: webhookDeliveryStatus,
  attempts: z.number().int(),
  response_code: z.number().int().nullable(),
  duration_ms: z.number().int().nullable(),
  error: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  last_attempt_at: z.string().nullable(),
  created_at: z.string(),
  /** Every attempt, newest first (at most 20). */
  history: z.array(webhookAttempt),
});
export type WebhookDelivery = z.infer<typeof webhookDelivery>;

export const webhookDeliveryListQuery = z.object({
  page: pageNumber,
  page_size: pageSize,
  status: z.preprocess(emptyToUndefined, webhookDeliveryStatus.optional()),
});
export type WebhookDeliveryListQuery = z.infer<typeof webhookDeliveryListQuery>;

export const webhookDeliveryList = listOf(webhookDelivery);

export const webhookDeliveryParams = z.object({ id: uuid, deliveryId: uuid });

/** The body every event is sent with (JSON). data holds the tenant's own ids and a summary, never another tenant's. */
export const webhookPayload = z.object({
  type: z.string(),
  timestamp: z.string(),
  data: z.record(z.string(), z.unknown()),
});
export type WebhookPayload = z.infer<typeof webhookPayload>;
