// The prepared statements of each pooled PostgreSQL connection (db/client.ts sends reads through them).
import crypto from 'node:crypto';
import pg from 'pg';

/**
 * Reads on PostgreSQL run as prepared statements: planning a list's statement (joins, lateral lookups, the policies of
 * every table) took twice as long as running it (2.7 ms against 1.4 ms for the farms page), and after five runs
 * PostgreSQL keeps a generic plan for a prepared statement (plan_cache_mode auto), so a page then costs about a fifth.
 * Each pooled connection prepares a statement text the first time it reads it (one more round trip, once), keeps at most
 * PREPARED_PER_CONNECTION of them (least recently used deallocated), and a text that cannot be prepared (a parameter
 * whose type only its literal tells), or that is not a query (EXPLAIN), is read with its values as literals, as before.
 */
const PREPARED_PER_CONNECTION = 100;
const preparedByConnection = new WeakMap<pg.PoolClient, Map<string, string>>();
const unpreparable = new Set<string>();
/** SQLSTATEs of a PREPARE that cannot type its parameters (indeterminate or ambiguous data type). */
const UNTYPED_PARAMETER = new Set(['42P18', '42P08', '42725']);

/** The name of `text` prepared on this connection (prepared now if new), or null: read it with its values as literals. */
export async function preparedName(client: pg.PoolClient, text: string): Promise<string | null> {
  // Only queries: an EXPLAIN (the planner's estimate of a count) needs its values, and PREPARE takes no other statement.
  if (!/^\s*(SELECT|WITH)\b/i.test(text) || unpreparable.has(text)) return null;
  let prepared = preparedByConnection.get(client);
  if (!prepared) preparedByConnection.set(client, (prepared = new Map()));
  const known = prepared.get(text);
  if (known) {
    // Most recently used last: the first entry is the one to deallocate.
    prepared.delete(text);
    prepared.set(text, known);
    return known;
  }
  const name = `r_${crypto.createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
  let evict = '';
  if (prepared.size >= PREPARED_PER_CONNECTION) {
    const [oldText, oldName] = prepared.entries().next().value as [string, string];
    prepared.delete(oldText);
    evict = `DEALLOCATE ${oldName}; `;
  }
  try {
    await client.query(`${evict}PREPARE ${name} AS ${text}`);
  } catch (err) {
    if (err instanceof pg.DatabaseError && err.code && UNTYPED_PARAMETER.has(err.code)) {
      if (unpreparable.size < 1000) unpreparable.add(text);
      return null;
    }
    throw err;
  }
  prepared.set(text, name);
  return name;
}
