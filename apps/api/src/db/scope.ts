// Scoped execution: every statement of the app runs under a row-level-security scope (tenant, provider or system),
// with the fewest round trips each engine allows (withScope, scopedRows, the readers), and the retry of a transaction
// that lost a serialization or deadlock conflict. The engines are registered when the database opens (client.ts).
import { sql, type SQL } from 'drizzle-orm';
import type { PgDialect } from 'drizzle-orm/pg-core';
import type { RelationalSchemaConfig, TablesRelationalConfig } from 'drizzle-orm/relations';
import { PgliteSession, PgliteTransaction } from 'drizzle-orm/pglite';
import { NodePgSession, NodePgTransaction } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { preparedName } from './pg-prepared.js';
import type { RemotePglite } from './pglite-remote.js';
import type { Db, Executor, Tx } from './types.js';

export type Scope = { kind: 'tenant'; tenantId: string } | { kind: 'provider' } | { kind: 'system' };

/** The row-level-security scope for one transaction (0002, 0007: app.scope and app.tenant_id, read by the policies). */
const SCOPE_SQL = `SELECT set_config('app.scope', $1, true), set_config('app.tenant_id', $2, true)`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The scope's two settings, checked (they are also written into SQL text on PostgreSQL: a known word and a uuid). */
function scopeValues(scope: Scope): [string, string] {
  if (scope.kind !== 'tenant' && scope.kind !== 'provider' && scope.kind !== 'system') throw new Error('Unknown scope');
  if (scope.kind !== 'tenant') return [scope.kind, ''];
  if (!UUID.test(scope.tenantId)) throw new Error('A tenant scope needs a tenant id');
  return ['tenant', scope.tenantId];
}

/**
 * asyncCommit: the transaction's COMMIT does not wait for its WAL to reach the disk (PostgreSQL's `synchronous_commit =
 * off` for this transaction alone; PGlite ignores it). Only for writes that a later durable commit vouches for: a
 * database crash may lose the last few such commits (never half of one), and a durable commit made after them flushes
 * them too, since the WAL is written in order. The analysis pipeline's batches use it: the run's completion is durable,
 * and a crash before it leaves the run processing, to be retried from scratch.
 */
export type ScopeOptions = { asyncCommit?: boolean; retry?: boolean };

/**
 * retry (ScopeOptions): a transaction that PostgreSQL ended with a serialisation failure (40001) or as a deadlock victim
 * (40P01) is run again from BEGIN, whole, up to TRANSACTION_ATTEMPTS times in all, after a short jittered pause. Only for
 * callbacks that are safe to re-run: everything they do is in the transaction (rows, audit, the mail outbox), and they
 * keep no state outside it between attempts (a file put in storage before a rolled-back attempt is left unreferenced,
 * as after any rollback). When the attempts run out the last error is thrown: plugins/errors.ts answers it with 409
 * `transaction_conflict`, never a 500. docs/decisions/0036-retry-deadlocks-and-serialisation-failures.md.
 */
export const TRANSACTION_ATTEMPTS = 4;
const RETRYABLE_STATES = new Set(['40001', '40P01']);

/** Whether a database error is one a transaction may be re-run after (a serialisation failure or a deadlock). */
export function isRetryableConflict(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && RETRYABLE_STATES.has(code)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** Pause before attempt n+1: a random 50-100 % of 10 ms × 2^(n-1), so that the colliding transactions do not meet again. */
const retryPause = (attempt: number) => new Promise<void>((resolve) => setTimeout(resolve, 10 * 2 ** (attempt - 1) * (0.5 + Math.random() / 2)));

/**
 * How each engine runs withScope and scopedRows with the fewest round trips; registered when the database opens.
 * transaction: BEGIN and the scope in one round trip, then fn, then COMMIT (ROLLBACK when fn throws).
 * read: the scope and one statement in one implicit transaction, in one round trip.
 */
type Engine = {
  transaction<T>(scope: Scope, fn: (tx: Tx) => Promise<T>, opts?: ScopeOptions): Promise<T>;
  read<T>(scope: Scope, text: string, params: unknown[], opts?: ReadOptions): Promise<T[]>;
  /** Two statements, each with its own scope, in one implicit transaction and one round trip: the rows of both. */
  readPair<P, T>(first: Readable, second: Readable): Promise<[P[], T[]]>;
};
type Readable = { scope: Scope; text: string; params: unknown[]; opts?: ReadOptions | undefined };

/**
 * How a read is planned. genericPlan: the statement's best plan does not depend on its parameters' values (a search:
 * trigram indexes whatever the text), so PostgreSQL plans it once per connection (plan_cache_mode force_generic_plan)
 * instead of every time, and serially (max_parallel_workers_per_gather 0: starting a worker costs more than such a read,
 * and a generic plan's estimates can ask for one). PostgreSQL only; PGlite plans each statement and has no workers.
 */
export type ReadOptions = { genericPlan?: boolean };
const engines = new WeakMap<Db, Engine>();

/** Called by openDatabase once the engine's drizzle instance exists. */
export function registerEngine(db: Db, engine: { kind: 'pglite'; client: RemotePglite } | { kind: 'postgres'; pool: pg.Pool }): void {
  engines.set(db, engine.kind === 'pglite' ? pgliteEngine(db, engine.client) : postgresEngine(db, engine.pool));
}

/** What drizzle's sessions are built from (as drizzle's own transaction() builds them). */
function drizzleParts(db: Db): { dialect: PgDialect; relational: RelationalSchemaConfig<TablesRelationalConfig> } {
  const d = db as unknown as {
    dialect: PgDialect;
    _: { schema: TablesRelationalConfig; fullSchema: Record<string, unknown>; tableNamesMap: Record<string, string> };
  };
  return { dialect: d.dialect, relational: { schema: d._.schema, fullSchema: d._.fullSchema, tableNamesMap: d._.tableNamesMap } };
}

/**
 * PGlite: BEGIN and the scope go to the database thread as one message and run as one call; the transaction's first
 * statement follows without waiting (pglite-remote.ts). A read is one message: the scope and the statement in one
 * implicit transaction.
 */
function pgliteEngine(db: Db, client: RemotePglite): Engine {
  const { dialect, relational } = drizzleParts(db);
  return {
    transaction: (scope, fn) =>
      client.transaction(
        (txClient) => {
          const session = new PgliteSession(txClient, dialect, relational, {});
          return fn(new PgliteTransaction(dialect, session, relational) as unknown as Tx);
        },
        [{ text: SCOPE_SQL, params: scopeValues(scope) }],
      ),
    read: async <T>(scope: Scope, text: string, params: unknown[]) => {
      const results = await client.batch([
        { text: SCOPE_SQL, params: scopeValues(scope) },
        { text, params },
      ]);
      return (results[1]?.rows ?? []) as T[];
    },
    readPair: async <P, T>(first: Readable, second: Readable): Promise<[P[], T[]]> => {
      const results = await client.batch([
        { text: SCOPE_SQL, params: scopeValues(first.scope) },
        { text: first.text, params: first.params },
        { text: SCOPE_SQL, params: scopeValues(second.scope) },
        { text: second.text, params: second.params },
      ]);
      return [(results[1]?.rows ?? []) as P[], (results[3]?.rows ?? []) as T[]];
    },
  };
}

/** A value written into SQL text as a literal (PostgreSQL reads: only strings, finite numbers, booleans, dates, null). */
function literal(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'string') {
    if (v.includes('\0')) throw new Error('A NUL character cannot be written into SQL');
    return pg.escapeLiteral(v);
  }
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (v instanceof Date) return pg.escapeLiteral(v.toISOString());
  throw new Error(`Cannot write a ${typeof v} into SQL as a literal`);
}

/** The scope's set_config with its values as literals (checked by scopeValues: a known word and a uuid), and a read's plan settings. */
function scopeSql(scope: Scope, opts?: ReadOptions): string {
  const [kind, tenant] = scopeValues(scope);
  const plan = opts?.genericPlan ? `, set_config('plan_cache_mode', 'force_generic_plan', true), set_config('max_parallel_workers_per_gather', '0', true)` : '';
  return `SELECT set_config('app.scope', ${literal(kind)}, true), set_config('app.tenant_id', ${literal(tenant)}, true)${plan}`;
}

/**
 * PostgreSQL: `BEGIN; SELECT set_config(…)` is one simple-protocol message (one round trip) on the transaction's pooled
 * connection; drizzle's transaction is built on that connection as drizzle's own transaction() builds it. A read is the
 * scope and the statement as one simple-protocol message: one round trip, one implicit transaction.
 */
function postgresEngine(db: Db, pool: pg.Pool): Engine {
  const { dialect, relational } = drizzleParts(db);
  return {
    transaction: async <T>(scope: Scope, fn: (tx: Tx) => Promise<T>, opts?: ScopeOptions): Promise<T> => {
      const begin = `BEGIN; ${scopeSql(scope)}${opts?.asyncCommit ? '; SET LOCAL synchronous_commit = off' : ''}`;
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        try {
          await client.query(begin);
          const session = new NodePgSession(client, dialect, relational, {});
          const result = await fn(new NodePgTransaction(dialect, session, relational) as unknown as Tx);
          await client.query('COMMIT');
          return result;
        } catch (err) {
          // A connection that cannot even roll back is dropped, not handed to the next request.
          await client.query('ROLLBACK').catch((e: Error) => (broken = e));
          throw err;
        }
      } finally {
        client.release(broken);
      }
    },
    read: async <T>(scope: Scope, text: string, params: unknown[], opts?: ReadOptions) => {
      const [results] = await simple(pool, [{ scope, text, params, opts }]);
      return (results?.rows ?? []) as T[];
    },
    readPair: async <P, T>(first: Readable, second: Readable): Promise<[P[], T[]]> => {
      const [a, b] = await simple(pool, [first, second]);
      return [(a?.rows ?? []) as P[], (b?.rows ?? []) as T[]];
    },
  };
}

/**
 * Statements, each after its scope, as one simple-protocol message on one pooled connection (one round trip, one
 * implicit transaction): each statement a prepared statement's EXECUTE when it can be prepared, else its text with
 * the values as literals. Answers each statement's result.
 */
async function simple(pool: pg.Pool, statements: Readable[]): Promise<pg.QueryResult[]> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    const parts: string[] = [];
    for (const { scope, text, params, opts } of statements) {
      const name = await preparedName(client, text);
      const statement = name
        ? `EXECUTE ${name}${params.length ? `(${params.map(literal).join(', ')})` : ''}`
        : text.replace(/\$(\d+)/g, (_, n: string) => literal(params[Number(n) - 1]));
      parts.push(scopeSql(scope, opts), statement);
    }
    const results = (await client.query(parts.join('; '))) as unknown as pg.QueryResult[];
    return statements.map((_, i) => results[2 * i + 1]!);
  } catch (err) {
    // An SQL error leaves the connection usable; anything else (a lost connection) drops it from the pool.
    if (!(err instanceof pg.DatabaseError)) broken = err as Error;
    throw err;
  } finally {
    client.release(broken);
  }
}

/**
 * Runs fn in one transaction with the row-level-security scope set for its duration.
 * Every read and write of tenant data goes through here; the service passes the scope from the session.
 * BEGIN and the scope take one round trip to the database (engines above).
 */
export async function withScope<T>(db: Db, scope: Scope, fn: (tx: Tx) => Promise<T>, opts?: ScopeOptions): Promise<T> {
  if (!opts?.retry) return scopedTransaction(db, scope, fn, opts);
  for (let attempt = 1; ; attempt++) {
    try {
      return await scopedTransaction(db, scope, fn, opts);
    } catch (err) {
      if (attempt >= TRANSACTION_ATTEMPTS || !isRetryableConflict(err)) throw err;
      await retryPause(attempt);
    }
  }
}

async function scopedTransaction<T>(db: Db, scope: Scope, fn: (tx: Tx) => Promise<T>, opts?: ScopeOptions): Promise<T> {
  const engine = engines.get(db);
  if (engine) return engine.transaction(scope, fn, opts);
  const [kind, tenant] = scopeValues(scope);
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT set_config('app.scope', ${kind}, true), set_config('app.tenant_id', ${tenant}, true)`);
    return fn(tx);
  });
}

/**
 * One statement in its own transaction with the row-level-security scope set: the scope and the statement reach the
 * database together (one round trip on either engine). For the hot fixed lookups that need nothing else in their
 * transaction (the session check on every request). Rows come with each driver's default types (timestamps as Date).
 * On PostgreSQL the parameters are written into the text as literals (strings, numbers, booleans, dates, null), so
 * the statement must hold no `$n` other than its parameters.
 */
export async function scopedRows<T>(db: Db, scope: Scope, query: SQL, opts?: ReadOptions): Promise<T[]> {
  const engine = engines.get(db);
  if (!engine) return withScope(db, scope, (tx) => queryRows<T>(tx, query));
  const { sql: text, params } = drizzleParts(db).dialect.sqlToQuery(query);
  return engine.read<T>(scope, text, params, opts);
}

/**
 * Runs one statement and answers its rows: a list's reads take one, so that a read can go to the database in one
 * round trip with its scope (scopedReader) or run inside an open transaction (txReader) with the same SQL.
 */
export type Reader = <T>(query: SQL, opts?: ReadOptions) => Promise<T[]>;

/**
 * A check that rides on a request's first scoped read (plugins/auth.ts: the session check): its statement runs in its
 * own scope, before the read and in the same round trip. settle() judges its rows and throws when the check fails (the
 * read's rows are then never used); alone() runs the check by itself, for a read that failed or when no read took it.
 * Both clear ctx.pending.
 */
export type PendingCheck = {
  scope: Scope;
  query: SQL;
  settle(rows: unknown[]): void;
  alone(): Promise<void>;
  /** Set while a read carries the check: reads made meanwhile answer only once it has passed. */
  inFlight?: Promise<void>;
};

/**
 * Each statement in its own implicit transaction with the scope (scopedRows): one round trip per statement. With the
 * request's ctx, the first statement also carries the request's pending check (ctx.pending), in the same round trip.
 */
export function scopedReader(db: Db, scope: Scope, ctx?: { pending?: PendingCheck | null }): Reader {
  return async <T>(query: SQL, opts?: ReadOptions) => {
    const check = ctx?.pending;
    if (!check) return scopedRows<T>(db, scope, query, opts);
    if (check.inFlight) {
      const [rows] = await Promise.all([scopedRows<T>(db, scope, query, opts), check.inFlight]);
      return rows;
    }
    const run = (async () => {
      let pair: [unknown[], T[]];
      try {
        pair = await scopedPair<unknown, T>(db, check.scope, check.query, scope, query, opts);
      } catch (err) {
        // The read failed: the check answers first (an ended session gets its 401, not the read's error).
        await check.alone();
        throw err;
      }
      check.settle(pair[0]);
      return pair[1];
    })();
    check.inFlight = run.then(() => undefined);
    check.inFlight.catch(() => undefined);
    return run;
  };
}

/** Two statements with their scopes in one round trip (engines' readPair); without an engine, one after the other. */
async function scopedPair<P, T>(db: Db, firstScope: Scope, first: SQL, scope: Scope, query: SQL, opts?: ReadOptions): Promise<[P[], T[]]> {
  const engine = engines.get(db);
  if (!engine) return [await scopedRows<P>(db, firstScope, first), await scopedRows<T>(db, scope, query, opts)];
  const { dialect } = drizzleParts(db);
  const a = dialect.sqlToQuery(first);
  const b = dialect.sqlToQuery(query);
  return engine.readPair<P, T>({ scope: firstScope, text: a.sql, params: a.params }, { scope, text: b.sql, params: b.params, opts });
}

/** Each statement in the open transaction tx (ReadOptions do not apply: the transaction's settings hold). */
export function txReader(tx: Executor): Reader {
  return <T>(query: SQL) => queryRows<T>(tx, query);
}

/** A reader for a query function that takes either (its caller's open transaction, or a reader). */
export function readerOf(run: Reader | Executor): Reader {
  return typeof run === 'function' ? run : txReader(run);
}

/** Runs a raw SQL statement and returns its rows; both drivers answer { rows }. Used where PostGIS needs plain SQL. */
export async function queryRows<T>(tx: Executor, query: SQL): Promise<T[]> {
  const res: unknown = await tx.execute(query);
  return (res as { rows: T[] }).rows;
}

/**
 * A list of records as one jsonb parameter (drizzle would expand a JS array into a parameter list). Read it back with
 * jsonb_to_recordset(...) AS t(col type, ...): one statement per batch on both engines, whatever the batch size.
 */
export function jsonb(value: unknown): SQL {
  return sql`${JSON.stringify(value)}::jsonb`;
}

/** A uuid[] parameter built from a JS array of ids. */
export function uuidArray(ids: readonly string[]): SQL {
  return sql`ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::uuid)`;
}
