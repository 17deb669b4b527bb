// All SQL of webhooks: endpoints, the event outbox (written in the caller's transaction), deliveries and their attempts.
// The tenant id is the first argument and sits in every where; the job's scan across tenants runs in the system scope.
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { jsonb, queryRows, type Executor } from '../../db/client.js';

export type EndpointRow = {
  id: string;
  tenant_id: string;
  url: string;
  description: string | null;
  events: string[];
  secret_enc: string;
  secret_hint: string;
  enabled: boolean;
  created_at: Date | string;
  updated_at: Date | string;
};

const ENDPOINT = sql`id, tenant_id, url, description, events, secret_enc, secret_hint, enabled, created_at, updated_at`;

const textArray = (v: string[]) => sql`${`{${v.map((x) => `"${x.replace(/["\\]/g, '\\$&')}"`).join(',')}}`}::text[]`;

export async function listEndpoints(tx: Executor, tenantId: string): Promise<EndpointRow[]> {
  return queryRows<EndpointRow>(tx, sql`SELECT ${ENDPOINT} FROM webhook_endpoints WHERE tenant_id = ${tenantId} ORDER BY created_at DESC, id DESC LIMIT 100`);
}

export async function countEndpoints(tx: Executor, tenantId: string): Promise<number> {
  const [r] = await queryRows<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM webhook_endpoints WHERE tenant_id = ${tenantId}`);
  return r?.n ?? 0;
}

export async function findEndpoint(tx: Executor, tenantId: string, id: string, opts: { lock?: boolean } = {}): Promise<EndpointRow | null> {
  const rows = await queryRows<EndpointRow>(
    tx,
    sql`SELECT ${ENDPOINT} FROM webhook_endpoints WHERE tenant_id = ${tenantId} AND id = ${id} ${opts.lock ? sql`FOR UPDATE` : sql``}`,
  );
  return rows[0] ?? null;
}

export async function insertEndpoint(
  tx: Executor,
  tenantId: string,
  v: { url: string; description: string | null; events: string[]; secretEnc: string; secretHint: string; enabled: boolean; createdBy: string },
): Promise<EndpointRow> {
  const [row] = await queryRows<EndpointRow>(
    tx,
    sql`INSERT INTO webhook_endpoints (tenant_id, url, description, events, secret_enc, secret_hint, enabled, created_by)
        VALUES (${tenantId}, ${v.url}, ${v.description}, ${textArray(v.events)}, ${v.secretEnc}, ${v.secretHint}, ${v.enabled}, ${v.createdBy})
        RETURNING ${ENDPOINT}`,
  );
  return row!;
}

export async function updateEndpoint(
  tx: Executor,
  tenantId: string,
  id: string,
  v: {
    url?: string | undefined;
    description?: string | null | undefined;
    events?: string[] | undefined;
    enabled?: boolean | undefined;
    secretEnc?: string;
    secretHint?: string;
  },
): Promise<EndpointRow | null> {
  const sets = [sql`updated_at = now()`];
  if (v.url !== undefined) sets.push(sql`url = ${v.url}`);
  if (v.description !== undefined) sets.push(sql`description = ${v.description}`);
  if (v.events !== undefined) sets.push(sql`events = ${textArray(v.events)}`);
  if (v.enabled !== undefined) sets.push(sql`enabled = ${v.enabled}`);
  if (v.secretEnc !== undefined) sets.push(sql`secret_enc = ${v.secretEnc}`);
  if (v.secretHint !== undefined) sets.push(sql`secret_hint = ${v.secretHint}`);
  const rows = await queryRows<EndpointRow>(
    tx,
    sql`UPDATE webhook_endpoints SET ${sql.join(sets, sql`, `)} WHERE tenant_id = ${tenantId} AND id = ${id} RETURNING ${ENDPOINT}`,
  );
  return rows[0] ?? null;
}

export async function deleteEndpoint(tx: Executor, tenantId: string, id: string): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(tx, sql`DELETE FROM webhook_endpoints WHERE tenant_id = ${tenantId} AND id = ${id} RETURNING id`);
  return rows.length > 0;
}

/**
 * The outbox write, in the caller's transaction: the event, and a pending delivery for each of the tenant's enabled
 * endpoints that subscribed to its type, in one statement. No subscribed endpoint: nothing is written. endpointId:
 * this endpoint only, whatever it subscribed to (the test event). Returns the event's id, or null.
 */
/**
 * Set when this process queued a delivery (an event, a test, a redelivery): the embedded job's scan runs only then or
 * when a retry it knows of is due, so the one database is left idle between events (its maintenance waits for idle).
 */
export const outboxHint = { wake: true };

export async function insertEvent(tx: Executor, tenantId: string, type: string, body: (id: string) => string, endpointId?: string): Promise<string | null> {
  const id = crypto.randomUUID();
  const which = endpointId ? sql`id = ${endpointId}` : sql`enabled AND ${type} = ANY(events)`;
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`WITH ep AS (SELECT id FROM webhook_endpoints WHERE tenant_id = ${tenantId} AND ${which}),
             ev AS (INSERT INTO webhook_events (id, tenant_id, type, body) SELECT ${id}, ${tenantId}, ${type}, ${body(id)} WHERE EXISTS (SELECT 1 FROM ep) RETURNING id)
        INSERT INTO webhook_deliveries (tenant_id, endpoint_id, event_id) SELECT ${tenantId}, ep.id, ev.id FROM ep, ev RETURNING event_id AS id`,
  );
  if (rows.length > 0) outboxHint.wake = true;
  return rows[0]?.id ?? null;
}

/**
 * Many events of one type for one tenant in one statement (a batch of a verdict sweep): the events, and a pending
 * delivery per event for each enabled endpoint subscribed to the type. None subscribed: nothing is written. Returns how
 * many events were written.
 */
export async function insertEvents(tx: Executor, tenantId: string, type: string, bodies: ReadonlyArray<(id: string) => string>): Promise<number> {
  if (bodies.length === 0) return 0;
  const rows = bodies.map((body) => {
    const id = crypto.randomUUID();
    return { id, body: body(id) };
  });
  const [r] = await queryRows<{ n: number }>(
    tx,
    sql`WITH ep AS (SELECT id FROM webhook_endpoints WHERE tenant_id = ${tenantId} AND enabled AND ${type} = ANY(events)),
             ev AS (INSERT INTO webhook_events (id, tenant_id, type, body)
                    SELECT x.id, ${tenantId}, ${type}, x.body FROM jsonb_to_recordset(${jsonb(rows)}) AS x(id uuid, body text)
                     WHERE EXISTS (SELECT 1 FROM ep) RETURNING id),
             d AS (INSERT INTO webhook_deliveries (tenant_id, endpoint_id, event_id) SELECT ${tenantId}, ep.id, ev.id FROM ep, ev RETURNING event_id)
        SELECT count(DISTINCT event_id)::int AS n FROM d`,
  );
  const n = r?.n ?? 0;
  if (n > 0) outboxHint.wake = true;
  return n;
}

export type DeliveryRow = {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: 'pending' | 'sending' | 'succeeded' | 'failed';
  attempts: number;
  response_code: number | null;
  duration_ms: number | null;
  error: string | null;
  next_attempt_at: Date | string | null;
  last_attempt_at: Date | string | null;
  created_at: Date | string;
  history: Array<{
    attempt: number;
    at: string;
    outcome: 'succeeded' | 'failed' | 'refused';
    response_code: number | null;
    duration_ms: number;
    error: string | null;
  }> | null;
};

const DELIVERY = sql`d.id, d.endpoint_id, d.event_id, e.type AS event_type, d.status, d.attempts, d.response_code, d.duration_ms, d.error,
  CASE WHEN d.status IN ('pending', 'sending') THEN d.next_attempt_at END AS next_attempt_at, d.last_attempt_at, d.created_at,
  (SELECT coalesce(jsonb_agg(jsonb_build_object('attempt', a.attempt, 'at', a.at, 'outcome', a.outcome, 'response_code', a.response_code,
                                                 'duration_ms', a.duration_ms, 'error', a.error) ORDER BY a.attempt DESC), '[]'::jsonb)
     FROM (SELECT * FROM webhook_attempts a WHERE a.tenant_id = d.tenant_id AND a.delivery_id = d.id ORDER BY a.attempt DESC LIMIT 20) a) AS history`;

export async function listDeliveries(
  tx: Executor,
  tenantId: string,
  endpointId: string,
  opts: { status?: string | undefined; limit: number; offset: number },
): Promise<{ rows: DeliveryRow[]; count: number }> {
  const status = opts.status ? sql`AND d.status = ${opts.status}` : sql``;
  const rows = await queryRows<DeliveryRow>(
    tx,
    sql`SELECT ${DELIVERY} FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id AND e.tenant_id = d.tenant_id
         WHERE d.tenant_id = ${tenantId} AND d.endpoint_id = ${endpointId} ${status}
         ORDER BY d.created_at DESC, d.id DESC LIMIT ${opts.limit} OFFSET ${opts.offset}`,
  );
  const [c] = await queryRows<{ n: number }>(
    tx,
    sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM webhook_deliveries d WHERE d.tenant_id = ${tenantId} AND d.endpoint_id = ${endpointId} ${status} LIMIT 10000) x`,
  );
  return { rows, count: c?.n ?? 0 };
}

export async function findDelivery(tx: Executor, tenantId: string, endpointId: string, id: string): Promise<DeliveryRow | null> {
  const rows = await queryRows<DeliveryRow>(
    tx,
    sql`SELECT ${DELIVERY} FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id AND e.tenant_id = d.tenant_id
         WHERE d.tenant_id = ${tenantId} AND d.endpoint_id = ${endpointId} AND d.id = ${id}`,
  );
  return rows[0] ?? null;
}

/** Redeliver: the delivery is due again now (a new attempt, numbered after the last). */
export async function requeueDelivery(tx: Executor, tenantId: string, endpointId: string, id: string): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now(), locked_until = NULL
         WHERE tenant_id = ${tenantId} AND endpoint_id = ${endpointId} AND id = ${id} AND status <> 'sending' RETURNING id`,
  );
  if (rows.length > 0) outboxHint.wake = true;
  return rows.length > 0;
}

// ---------- the job ----------

/** How long a claimed delivery is held before another worker may take it (a crashed attempt). */
export const CLAIM_SECONDS = 120;

/** Claims due deliveries across tenants (system scope): pending ones whose time has come, and sending ones whose claim lapsed. */
export async function claimDue(tx: Executor, limit: number): Promise<Array<{ id: string; tenant_id: string }>> {
  return queryRows<{ id: string; tenant_id: string }>(
    tx,
    sql`UPDATE webhook_deliveries SET status = 'sending', locked_until = now() + make_interval(secs => ${CLAIM_SECONDS})
         WHERE id IN (SELECT id FROM webhook_deliveries
                       WHERE status IN ('pending', 'sending') AND next_attempt_at <= now() AND (locked_until IS NULL OR locked_until < now())
                       ORDER BY next_attempt_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
        RETURNING id, tenant_id`,
  );
}

/** When the next delivery falls due (a retry's time, or a claim's lapse), across tenants; null: none is waiting. */
export async function nextDue(tx: Executor): Promise<Date | null> {
  const [r] = await queryRows<{ at: Date | string | null }>(
    tx,
    sql`SELECT min(greatest(next_attempt_at, coalesce(locked_until, next_attempt_at))) AS at FROM webhook_deliveries WHERE status IN ('pending', 'sending')`,
  );
  return r?.at ? new Date(r.at) : null;
}

export type SendableRow = { id: string; attempts: number; status: string; url: string; secret_enc: string; enabled: boolean; event_id: string; body: string };

/** What one attempt needs: the delivery (still claimed), its endpoint and the event's body. */
export async function sendable(tx: Executor, tenantId: string, id: string): Promise<SendableRow | null> {
  const rows = await queryRows<SendableRow>(
    tx,
    sql`SELECT d.id, d.attempts, d.status, w.url, w.secret_enc, w.enabled, e.id AS event_id, e.body
          FROM webhook_deliveries d
          JOIN webhook_endpoints w ON w.id = d.endpoint_id AND w.tenant_id = d.tenant_id
          JOIN webhook_events e ON e.id = d.event_id AND e.tenant_id = d.tenant_id
         WHERE d.tenant_id = ${tenantId} AND d.id = ${id}`,
  );
  return rows[0] ?? null;
}

export async function recordAttempt(
  tx: Executor,
  tenantId: string,
  id: string,
  a: {
    attempt: number;
    outcome: 'succeeded' | 'failed' | 'refused';
    responseCode: number | null;
    durationMs: number;
    error: string | null;
    nextInSeconds: number | null;
  },
): Promise<void> {
  const status = a.outcome === 'succeeded' ? 'succeeded' : a.nextInSeconds === null ? 'failed' : 'pending';
  await tx.execute(sql`
    INSERT INTO webhook_attempts (delivery_id, attempt, tenant_id, outcome, response_code, duration_ms, error)
    VALUES (${id}, ${a.attempt}, ${tenantId}, ${a.outcome}, ${a.responseCode}, ${a.durationMs}, ${a.error})
    ON CONFLICT (delivery_id, attempt) DO NOTHING`);
  await tx.execute(sql`
    UPDATE webhook_deliveries SET status = ${status}, attempts = ${a.attempt}, last_attempt_at = now(), response_code = ${a.responseCode},
           duration_ms = ${a.durationMs}, error = ${a.error}, locked_until = NULL,
           next_attempt_at = ${a.nextInSeconds === null ? sql`NULL` : sql`now() + make_interval(secs => ${a.nextInSeconds})`}
     WHERE tenant_id = ${tenantId} AND id = ${id}`);
  // The scan re-reads the next due time (a retry's).
  if (status === 'pending') outboxHint.wake = true;
}

/** A delivery whose endpoint was disabled meanwhile: it stops, without an attempt. */
export async function stopDelivery(tx: Executor, tenantId: string, id: string, error: string): Promise<void> {
  await tx.execute(
    sql`UPDATE webhook_deliveries SET status = 'failed', error = ${error}, locked_until = NULL, next_attempt_at = NULL WHERE tenant_id = ${tenantId} AND id = ${id}`,
  );
}

// ---------- retention ----------

/**
 * Removes up to `limit` finished deliveries (succeeded, or failed: no retry left) that finished before `days` days ago,
 * across tenants (system scope; their attempts go with them), then up to `limit` events of that age that no delivery
 * refers to any more. Pending and sending deliveries are never removed, whatever their age. Returns the rows removed.
 */
export async function pruneFinished(tx: Executor, days: number, limit: number): Promise<{ deliveries: number; events: number }> {
  const cutoff = sql`now() - make_interval(days => ${days})`;
  const [d] = await queryRows<{ n: number }>(
    tx,
    sql`WITH gone AS (
          DELETE FROM webhook_deliveries WHERE id IN (
            SELECT id FROM webhook_deliveries
             WHERE status IN ('succeeded', 'failed') AND coalesce(last_attempt_at, created_at) < ${cutoff}
             LIMIT ${limit} FOR UPDATE SKIP LOCKED)
          RETURNING 1)
        SELECT count(*)::int AS n FROM gone`,
  );
  const [e] = await queryRows<{ n: number }>(
    tx,
    sql`WITH gone AS (
          DELETE FROM webhook_events WHERE id IN (
            SELECT e.id FROM webhook_events e
             WHERE e.created_at < ${cutoff} AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id)
             LIMIT ${limit} FOR UPDATE SKIP LOCKED)
          RETURNING 1)
        SELECT count(*)::int AS n FROM gone`,
  );
  return { deliveries: d?.n ?? 0, events: e?.n ?? 0 };
}
