// The encrypted bodies' jti store (migration 0022): a jti is taken once while its body's iat is within the replay
// window, across every API process. Expired rows are pruned at most once a minute per process.
import { sql } from 'drizzle-orm';
import { queryRows, withScope, type Db } from '../../db/client.js';

const PRUNE_EVERY_MS = 60_000;
let lastPrune = 0;

/** Records a jti until untilSeconds (epoch); false when it was already there (a replay). */
export async function rememberJti(db: Db, jti: string, untilSeconds: number): Promise<boolean> {
  const prune = Date.now() - lastPrune > PRUNE_EVERY_MS;
  if (prune) lastPrune = Date.now();
  return withScope(
    db,
    { kind: 'system' },
    async (tx) => {
      if (prune) await queryRows(tx, sql`DELETE FROM payload_jtis WHERE expires_at < now()`);
      const rows = await queryRows<{ jti: string }>(
        tx,
        sql`INSERT INTO payload_jtis (jti, expires_at) VALUES (${jti}, to_timestamp(${untilSeconds})) ON CONFLICT (jti) DO NOTHING RETURNING jti`,
      );
      return rows.length === 1;
      // The commit need not wait for the disk: a crash can lose the last moment's jtis, and with them only the refusal of
      // a replay within that moment; every encrypted write pays this statement, so it is kept cheap.
    },
    { asyncCommit: true },
  );
}
