// Webhook delivery (issue 32, part 3). The outbox (webhook_events + webhook_deliveries, written in the transaction of
// the change) is scanned every second by each process that works jobs: due deliveries are claimed (status sending, a
// two-minute claim) and sent to the pg-boss queue; a queue worker makes the attempt (webhooks.send.ts), records it and
// schedules the next one by the retry schedule below, or ends the delivery. A claim whose process died lapses and the
// delivery is claimed again. Every attempt is counted in webhook_deliveries_total by outcome.
import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import type { Deps } from '../../context.js';
import { withScope } from '../../db/client.js';
import { webhookDeliveries } from '../../lib/metrics.js';
import { startBoss, type QueueSpec } from '../../jobs/queue.js';
import { claimDue, nextDue, outboxHint, pruneFinished, recordAttempt, sendable, stopDelivery } from './webhooks.queries.js';
import { sendWebhook } from './webhooks.send.js';
import { secretOf } from './webhooks.service.js';

export const WEBHOOK_QUEUE = 'webhook-deliver';

export const webhookQueues: QueueSpec[] = [
  // The attempt records its own outcome and retry; pg-boss's retry only covers a worker that died mid-attempt (the
  // claim lapses as well, so either brings it back).
  { name: WEBHOOK_QUEUE, retryLimit: 0, retryDelay: 5, expireInSeconds: 120 },
];

/** Seconds before the next attempt after a failed attempt n (1-based): about a day in all; then the delivery fails. */
export const RETRY_SCHEDULE_SECONDS = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 8 * 3600, 8 * 3600] as const;

export const nextDelaySeconds = (attempt: number, scale: number): number | null => {
  const base = RETRY_SCHEDULE_SECONDS[attempt - 1];
  return base === undefined ? null : base * scale;
};

const POLL_MS = 1000;
const CLAIM_BATCH = 20;

/** Retention: the delivery log is pruned this often, PRUNE_BATCH rows a transaction. */
const PRUNE_EVERY_MS = 60 * 60 * 1000;
export const PRUNE_BATCH = 1000;

type DeliveryJob = { deliveryId: string; tenantId: string };

export type WebhookJobs = { start(): Promise<void>; stop(): Promise<void>; poll(): Promise<number>; prune(): Promise<{ deliveries: number; events: number }> };

/**
 * Retention (WEBHOOK_DELIVERY_RETENTION_DAYS): removes finished deliveries older than the retention, and events left
 * without deliveries, `batch` rows a transaction until none is left; pending and recent ones stay. Returns the counts.
 */
export async function pruneDeliveries(deps: Pick<Deps, 'db' | 'config'>, batch = PRUNE_BATCH): Promise<{ deliveries: number; events: number }> {
  const total = { deliveries: 0, events: 0 };
  for (;;) {
    const r = await withScope(deps.db, { kind: 'system' }, (tx) => pruneFinished(tx, deps.config.webhooks.retentionDays, batch));
    total.deliveries += r.deliveries;
    total.events += r.events;
    if (r.deliveries < batch && r.events < batch) return total;
  }
}

/** One attempt of one claimed delivery. */
export async function attemptDelivery(deps: Deps, tenantId: string, deliveryId: string, log: FastifyBaseLogger = deps.log): Promise<void> {
  const scope = { kind: 'tenant', tenantId } as const;
  const d = await withScope(deps.db, scope, (tx) => sendable(tx, tenantId, deliveryId));
  if (!d || d.status !== 'sending') return;
  if (!d.enabled) {
    await withScope(deps.db, scope, (tx) => stopDelivery(tx, tenantId, deliveryId, 'The endpoint was disabled before this delivery was sent'));
    return;
  }
  const { allowedHosts, timeoutMs, maxResponseBytes, retryScale } = deps.config.webhooks;
  const result = await sendWebhook(d.url, secretOf(deps, d.secret_enc), d.event_id, d.body, { allowedHosts, timeoutMs, maxResponseBytes });
  const attempt = d.attempts + 1;
  webhookDeliveries.inc({ outcome: result.outcome === 'succeeded' ? 'success' : result.outcome === 'refused' ? 'refused' : 'failure' });
  const nextInSeconds = result.outcome === 'succeeded' ? null : nextDelaySeconds(attempt, retryScale);
  await withScope(deps.db, scope, (tx) => recordAttempt(tx, tenantId, deliveryId, { attempt, ...result, nextInSeconds }));
  // The URL's host only: its path or query may carry the receiver's token; the secret is never logged.
  const host = new URL(d.url).host;
  if (result.outcome === 'succeeded') log.info({ deliveryId, host, attempt, code: result.responseCode, ms: result.durationMs }, 'webhook delivered');
  else
    log.warn(
      { deliveryId, host, attempt, outcome: result.outcome, code: result.responseCode, error: result.error, retryInSeconds: nextInSeconds },
      'webhook attempt failed',
    );
}

export function webhookJobs(deps: Deps, opts: { work?: boolean; log?: FastifyBaseLogger } = {}): WebhookJobs {
  const log = opts.log ?? deps.log;
  const work = opts.work ?? deps.config.analysisWorkers;
  let boss: PgBoss | null = null;
  let workerId: string | null = null;
  let timer: NodeJS.Timeout | null = null;
  let polling: Promise<number> | null = null;
  let pruning: Promise<{ deliveries: number; events: number }> | null = null;
  let pruneAt = 0;

  const prune = async () => {
    pruning ??= pruneDeliveries(deps)
      .then((r) => {
        if (r.deliveries + r.events > 0) log.info({ ...r, retentionDays: deps.config.webhooks.retentionDays }, 'webhook delivery log pruned');
        return r;
      })
      .finally(() => {
        pruning = null;
      });
    return pruning;
  };

  const handle = async (jobs: Array<PgBoss.Job<DeliveryJob>>) => {
    await Promise.all(
      jobs.map((job) =>
        attemptDelivery(deps, job.data.tenantId, job.data.deliveryId, log).catch((err: unknown) =>
          log.error({ err, deliveryId: job.data.deliveryId }, 'webhook attempt could not be recorded'),
        ),
      ),
    );
  };

  // Embedded: one process holds the database, so the hint (outboxHint, and the next retry's time read after each scan)
  // knows of every delivery; PostgreSQL: other processes queue deliveries too, so the scan runs every second.
  const hinted = deps.database.kind === 'pglite';
  let dueAt = 0;

  /** Claims what is due and queues it; returns how many. */
  const poll = async (): Promise<number> => {
    if (!boss) return 0;
    if (hinted && !outboxHint.wake && Date.now() < dueAt) return 0;
    polling ??= (async () => {
      let n = 0;
      try {
        outboxHint.wake = false;
        for (;;) {
          const due = await withScope(deps.db, { kind: 'system' }, (tx) => claimDue(tx, CLAIM_BATCH));
          for (const d of due) await boss.send(WEBHOOK_QUEUE, { deliveryId: d.id, tenantId: d.tenant_id } satisfies DeliveryJob);
          n += due.length;
          if (due.length < CLAIM_BATCH) break;
        }
        if (n > 0 && workerId) boss.notifyWorker(workerId);
        if (hinted) {
          const next = await withScope(deps.db, { kind: 'system' }, (tx) => nextDue(tx));
          // A delivery just queued is claimed (sending) until its attempt records the next time: look again shortly.
          dueAt = next ? next.getTime() : Number.POSITIVE_INFINITY;
        }
      } catch (err) {
        dueAt = 0;
        throw err;
      } finally {
        polling = null;
      }
      return n;
    })();
    return polling;
  };

  return {
    start: async () => {
      if (!work || boss) return;
      const b = await startBoss(deps.database, webhookQueues, log);
      workerId = await b.work<DeliveryJob>(WEBHOOK_QUEUE, { batchSize: 5, pollingIntervalSeconds: 1 }, handle);
      boss = b;
      timer = setInterval(() => {
        void poll().catch((err: unknown) => log.error({ err }, 'webhook outbox scan failed'));
        if (Date.now() >= pruneAt) {
          pruneAt = Date.now() + PRUNE_EVERY_MS;
          void prune().catch((err: unknown) => log.error({ err }, 'webhook delivery log pruning failed'));
        }
      }, POLL_MS);
      timer.unref();
    },
    stop: async () => {
      if (timer) clearInterval(timer);
      timer = null;
      await polling?.catch(() => undefined);
      await pruning?.catch(() => undefined);
      const b = boss;
      boss = null;
      if (b) await b.stop({ graceful: true, close: false, wait: true, timeout: 15_000 });
    },
    poll,
    prune,
  };
}
