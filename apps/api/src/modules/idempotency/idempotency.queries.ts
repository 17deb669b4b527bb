// The Idempotency-Key store (migration 0025): claim a key, complete it with the answer, release it, prune old rows.
import { sql } from 'drizzle-orm';
import { queryRows, withScope, type Db } from '../../db/client.js';

export type KeyRow = { request: string; body_hash: string; status: number | null; response: string | null };
export type Claim = { tenantId: string; actor: string; key: string };

/** How long an answer is kept (the contract's IDEMPOTENCY_KEY_TTL_HOURS, 24). */
export const KEEP_HOURS = 24;
const PRUNE_EVERY_MS = 60_000;
let lastPrune = 0;

const scopeOf = (tenantId: string) => ({ kind: 'tenant', tenantId }) as const;

/**
 * Claims the key for this request, or answers the row that holds it (another request's claim or kept answer). The
 * INSERT … ON CONFLICT DO NOTHING makes two concurrent claims of one key end with one winner on either engine: on
 * PostgreSQL the second insert waits for the first's commit, then inserts nothing and reads the winner's row.
 * A row older than KEEP_HOURS counts as absent (pruning may not have run yet): it is replaced.
 */
export async function claimKey(db: Db, c: Claim, request: string, bodyHash: string): Promise<{ claimed: true } | { claimed: false; row: KeyRow }> {
  const prune = Date.now() - lastPrune > PRUNE_EVERY_MS;
  if (prune) lastPrune = Date.now();
  if (prune) await pruneAllKeys(db);
  return withScope(db, scopeOf(c.tenantId), async (tx) => {
    await queryRows(
      tx,
      sql`DELETE FROM idempotency_keys WHERE tenant_id = ${c.tenantId} AND actor = ${c.actor} AND key = ${c.key}
            AND created_at < now() - make_interval(hours => ${KEEP_HOURS})`,
    );
    const inserted = await queryRows<{ key: string }>(
      tx,
      sql`INSERT INTO idempotency_keys (tenant_id, actor, key, request, body_hash)
          VALUES (${c.tenantId}, ${c.actor}, ${c.key}, ${request}, ${bodyHash})
          ON CONFLICT (tenant_id, actor, key) DO NOTHING RETURNING key`,
    );
    if (inserted.length === 1) return { claimed: true as const };
    const [row] = await queryRows<KeyRow>(
      tx,
      sql`SELECT request, body_hash, status, response FROM idempotency_keys WHERE tenant_id = ${c.tenantId} AND actor = ${c.actor} AND key = ${c.key}`,
    );
    // Deleted between the two statements (pruned, or released by its request): claim it now.
    if (!row) {
      await queryRows(
        tx,
        sql`INSERT INTO idempotency_keys (tenant_id, actor, key, request, body_hash) VALUES (${c.tenantId}, ${c.actor}, ${c.key}, ${request}, ${bodyHash})`,
      );
      return { claimed: true as const };
    }
    return { claimed: false as const, row };
  });
}

/** Keeps the answer of the request that claimed the key. */
export async function completeKey(db: Db, c: Claim, status: number, response: string): Promise<void> {
  await withScope(db, scopeOf(c.tenantId), (tx) =>
    queryRows(
      tx,
      sql`UPDATE idempotency_keys SET status = ${status}, response = ${response}, completed_at = now()
          WHERE tenant_id = ${c.tenantId} AND actor = ${c.actor} AND key = ${c.key} AND status IS NULL`,
    ),
  );
}

/** Frees a key whose request was refused or failed: nothing was kept, so the same key may be sent again. */
export async function releaseKey(db: Db, c: Claim): Promise<void> {
  await withScope(db, scopeOf(c.tenantId), (tx) =>
    queryRows(tx, sql`DELETE FROM idempotency_keys WHERE tenant_id = ${c.tenantId} AND actor = ${c.actor} AND key = ${c.key} AND status IS NULL`),
  );
}

/** Deletes every tenant's rows older than KEEP_HOURS (kept answers and stale claims); claimKey runs it at most once a minute per process, as the payload jti store does. */
export async function pruneAllKeys(db: Db): Promise<number> {
  const rows = await withScope(db, { kind: 'system' }, (tx) =>
    queryRows<{ n: number }>(
      tx,
      sql`WITH d AS (DELETE FROM idempotency_keys WHERE created_at < now() - make_interval(hours => ${KEEP_HOURS}) RETURNING 1) SELECT count(*)::int AS n FROM d`,
    ),
  );
  return rows[0]?.n ?? 0;
}
