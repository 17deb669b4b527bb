// Opens the database in either mode: embedded PGlite with PostGIS (default) or PostgreSQL through DATABASE_URL.
// Both run the same committed migrations; the app then works as the farmland_app role so row-level security applies.
import fs from 'node:fs';
import path from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { PgDialect } from 'drizzle-orm/pg-core';
import type { RelationalSchemaConfig, TablesRelationalConfig } from 'drizzle-orm/relations';
import { drizzle as drizzlePglite, PgliteSession, PgliteTransaction } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg, NodePgSession, NodePgTransaction } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import type { PGlite } from '@electric-sql/pglite';
import { statementSpan, tracingStatements } from '../lib/tracing.js';
import { preparedName } from './pg-prepared.js';
import { embeddedMaintenance, type EmbeddedMaintenance } from './pglite-maintenance.js';
import { RemotePglite } from './pglite-remote.js';
import type { WorkerStats } from './pglite.worker.js';
import * as schema from './schema.js';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Anything that runs queries: the database or an open transaction. */
export type Executor = Db | Tx;

export const migrationsFolder = path.resolve(import.meta.dirname, '../../drizzle');
export const APP_ROLE = 'farmland_app';

export type Database = {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** Runs parameterless, possibly multi-statement SQL with full privileges (migrations, seeding lookups). */
  adminExec(text: string): Promise<void>;
  /** Runs one statement with full privileges (bulk lookup seeding). */
  adminQuery<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Raw parameterised query as the app role, used by libraries that bring their own SQL (pg-boss). */
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Ends the boot phase: from now on adminExec/adminQuery refuse (on PGlite they switch the shared connection's role). */
  sealAdmin(): void;
  /** PGlite only: the database thread's JS heap and its WebAssembly heap, in bytes (footprint log and benchmark). */
  memory?(): Promise<WorkerStats>;
  /**
   * PGlite only: the autovacuum-like pass (pglite-maintenance.ts; PGlite runs no autovacuum). PostgreSQL has none: its
   * own autovacuum does this there.
   */
  maintenance?: EmbeddedMaintenance;
  /** PGlite only: the data directory as a gzipped tarball (test templates). */
  dumpDataDir?(): Promise<Blob>;
  /** PostgreSQL only: the app pool's connections (total, idle, requests waiting for one), for /api/metrics. */
  poolStats?(): { total: number; idle: number; waiting: number };
  /**
   * PostgreSQL only: how many migrations the database has applied (read with the owner's connection), for readiness.
   * PGlite has none: the one process that holds the data directory migrated it at boot, or did not start.
   */
  appliedMigrations?(): Promise<number>;
  close(): Promise<void>;
};

export type OpenOptions =
  | { kind: 'pglite'; dataDir: string | null; loadDataDir?: Blob; onCrash?: (err: Error) => void }
  | { kind: 'postgres'; url: string; adminUrl: string; poolSize: number };

export class UnsafeDatabaseRoleError extends Error {}

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  return opts.kind === 'pglite' ? openPglite(opts.dataDir, opts.loadDataDir, opts.onCrash) : openPostgres(opts.url, opts.adminUrl, opts.poolSize);
}

async function openPglite(dataDir: string | null, loadDataDir?: Blob, onCrash?: (err: Error) => void): Promise<Database> {
  if (dataDir) fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  // PGlite (with PostGIS) runs in a worker thread: its statements never block the API's event loop.
  const client = await RemotePglite.create({ dataDir, ...(loadDataDir ? { loadDataDir } : {}), ...(onCrash ? { onCrash } : {}) });
  const db = drizzlePglite(client.asPglite(), { schema }) as unknown as Db;
  await migratePglite(drizzlePglite(client.asPglite()), { migrationsFolder });
  // PGlite is one superuser connection: drop to the app role so row-level security applies exactly as on PostgreSQL.
  // Admin work (lookup seeding) switches back with RESET ROLE inside adminExec/adminQuery and returns.
  await client.exec(`SET ROLE ${APP_ROLE}`);
  engines.set(db, pgliteEngine(db, client));
  // Switching roles on the one shared connection would let a concurrent query run as superuser, so admin work is
  // allowed only during boot, before the server listens (sealAdmin), when nothing else runs.
  let sealed = false;
  const maintenance = embeddedMaintenance(client);
  const asAdmin = async <T>(fn: () => Promise<T>): Promise<T> => {
    if (sealed) throw new Error('Admin statements are only allowed during boot');
    await client.exec('RESET ROLE');
    try {
      return await fn();
    } finally {
      await client.exec(`SET ROLE ${APP_ROLE}`);
    }
  };
  return {
    kind: 'pglite',
    db,
    adminExec: (text) => asAdmin(async () => void (await client.exec(text))),
    adminQuery: <T>(text: string, params: unknown[] = []) => asAdmin(async () => (await client.query<T>(text, params)).rows),
    query: async <T>(text: string, params: unknown[] = []) => (await client.query<T>(text, params)).rows,
    dumpDataDir: async () => client.dumpDataDir(),
    memory: async () => client.stats(),
    maintenance,
    sealAdmin: () => {
      sealed = true;
    },
    close: async () => {
      maintenance.stop();
      if (!client.closed) await client.close();
    },
  };
}

/** Applies the committed migrations with the owner's connection (creates PostGIS, the tables, farmland_app and the policies). */
export async function runPgMigrations(adminUrl: string): Promise<void> {
  const admin = new pg.Pool({ connectionString: adminUrl, max: 1 });
  try {
    await migratePg(drizzlePg(admin), { migrationsFolder });
  } finally {
    await admin.end();
  }
}

async function openPostgres(url: string, adminUrl: string, poolSize: number): Promise<Database> {
  await runPgMigrations(adminUrl);
  const admin = new pg.Pool({ connectionString: adminUrl, max: 2 });
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle pooled connection that PostgreSQL ends (a restart, pg_terminate_backend) is reported as an 'error' event on
  // its pool; unhandled, that event ends the process. The pool has already dropped the connection and the next query
  // opens another, and a query in flight fails on its own, so the event itself needs nothing more.
  const dropped = () => undefined;
  admin.on('error', dropped);
  pool.on('error', dropped);
  // Each pooled connection's round trips become client spans when tracing is on (lib/tracing.ts statementSpan).
  pool.on('connect', traceClient);
  admin.on('connect', traceClient);
  const role = await pool.query<{ rolsuper: boolean; rolbypassrls: boolean; rolname: string; member: boolean }>(
    `SELECT r.rolname, r.rolsuper, r.rolbypassrls, pg_has_role(current_user, '${APP_ROLE}', 'MEMBER') AS member
       FROM pg_roles r WHERE r.rolname = current_user`,
  );
  const r = role.rows[0];
  if (!r || r.rolsuper || r.rolbypassrls || !r.member) {
    await pool.end();
    await admin.end();
    throw new UnsafeDatabaseRoleError(
      `Refusing to start: DATABASE_URL connects as "${r?.rolname ?? '?'}", which ${
        r?.rolsuper ? 'is a superuser' : r?.rolbypassrls ? 'has BYPASSRLS' : `is not a member of ${APP_ROLE}`
      }. Connect as a login role that is a member of ${APP_ROLE} (npm run db:setup creates one) and give the owner's URL as DATABASE_ADMIN_URL.`,
    );
  }
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  engines.set(db, postgresEngine(db, pool));
  return {
    kind: 'postgres',
    db,
    adminExec: async (text) => void (await admin.query(text)),
    adminQuery: async <T>(text: string, params: unknown[] = []) => (await admin.query(text, params)).rows as T[],
    query: async <T>(text: string, params: unknown[] = []) => (await pool.query(text, params)).rows as T[],
    // On PostgreSQL admin statements use their own pool and role: nothing to seal.
    sealAdmin: () => undefined,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    appliedMigrations: async () => Number((await admin.query<{ n: number }>('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations')).rows[0]?.n ?? 0),
    close: async () => {
      await Promise.allSettled([pool.end(), admin.end()]);
    },
  };
}

/**
 * A pooled connection whose query() makes a span of each round trip made inside a request or a job (tracing on); off, a
 * call costs one check. The promise form (drizzle, withScope, the reads) and the callback form (pg.Pool's own query:
 * Database.query, pg-boss) are both covered; a submittable (a cursor, a stream) is passed through as it is.
 */
function traceClient(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const first = args[0] as string | { text?: string; values?: unknown[]; submit?: unknown } | undefined;
    if (!tracingStatements() || (typeof first === 'object' && typeof first?.submit === 'function')) return query(...args);
    const text = typeof first === 'string' ? first : (first?.text ?? '');
    const values = Array.isArray(args[1]) ? args[1] : typeof first === 'object' ? first?.values : undefined;
    const parameterised = (values?.length ?? 0) > 0;
    const last = args[args.length - 1];
    if (typeof last !== 'function') return statementSpan('postgresql', text, parameterised, () => query(...args) as Promise<unknown>);
    // The callback form: the span ends when the callback is called.
    let done!: (err: unknown) => void;
    const settled = new Promise<void>((resolve, reject) => (done = (err) => (err ? reject(err as Error) : resolve())));
    void statementSpan('postgresql', text, parameterised, () => settled).catch(() => undefined);
    return query(...args.slice(0, -1), (err: unknown, res: unknown) => {
      done(err);
      (last as (e: unknown, r: unknown) => void)(err, res);
    });
  };
}

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

/** What drizzle's sessions are built from (as drizzle's own transaction() builds them). */
function drizzleParts(db: Db): { dialect: PgDialect; relational: RelationalSchemaConfig<TablesRelationalConfig> } {
  const d = db as unknown as { dialect: PgDialect; _: { schema: TablesRelationalConfig; fullSchema: Record<string, unknown>; tableNamesMap: Record<string, string> } };
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
          const session = new PgliteSession(txClient as unknown as PGlite, dialect, relational, {});
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
  const res = (await tx.execute(query)) as unknown as { rows: T[] };
  return res.rows;
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
