// Fair order across tenants for one pg-boss queue, kept in the database so that it holds for every process that sends
// or works jobs. pg-boss 10 fetches `ORDER BY priority DESC, created_on`; a job's priority is minus its round number,
// start-time fair queueing with one unit per job: a tenant's job goes one round after that tenant's last waiting or
// running job, and never before the round now at the head of the queue. So a tenant that queued 100 jobs holds rounds
// 0..99, and another tenant's first job takes the head's round and runs next (docs/decisions/0017-fair-queues.md).
import { sql } from 'drizzle-orm';
import { queryRows, type Database, type Executor } from '../db/client.js';

/** The schema pg-boss's tables live in (queue.ts installs them there). */
export const BOSS_SCHEMA = 'pgboss';

/**
 * The index fairPriority reads (owner's connection, at boot; idempotent, serialised across processes that boot at once).
 * On pg-boss's job table, partial to the jobs not yet finished: without it the statement scans every job the queue kept
 * (completed ones stay 12 hours), 9.6 ms for 50,000 against 0.6 ms with it (docs/decisions/0017-fair-queues.md).
 */
export async function installFairIndex(database: Database): Promise<void> {
  await database.adminExec(`
    BEGIN;
    SELECT pg_advisory_xact_lock(hashtextextended('farmland:fair-queue-index', 0));
    CREATE INDEX IF NOT EXISTS job_fair_idx ON ${BOSS_SCHEMA}.job (name, (data->>'tenantId'), priority) WHERE state < 'completed';
    COMMIT;`);
}

/**
 * The priority for a new job of `tenantId` in `queue`: min(head, tenant's lowest - 1) over the jobs not yet finished
 * (created, retry, active), 0 on an empty queue. Jobs carry their tenant in `data.tenantId`.
 */
export async function fairPriority(tx: Executor, tenantId: string, queue: string): Promise<number> {
  const [row] = await queryRows<{ priority: number }>(
    tx,
    sql`
    SELECT least(coalesce(max(priority), 0), coalesce(min(priority) FILTER (WHERE data->>'tenantId' = ${tenantId}) - 1, 0))::int AS priority
      FROM ${sql.raw(BOSS_SCHEMA)}.job
     WHERE name = ${queue} AND state < 'completed'`,
  );
  return row?.priority ?? 0;
}
