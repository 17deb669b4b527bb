// Opens the database in either mode: embedded PGlite with PostGIS (default) or PostgreSQL through DATABASE_URL.
// Both run the same committed migrations; the app then works as the farmland_app role so row-level security applies.
import fs from 'node:fs';
import path from 'node:path';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { statementSpan, tracingStatements } from '../lib/tracing.js';
import { embeddedMaintenance, type EmbeddedMaintenance } from './pglite-maintenance.js';
import { RemotePglite } from './pglite-remote.js';
import type { WorkerStats } from './pglite.worker.js';
import * as schema from './schema.js';
import { registerEngine } from './scope.js';
import type { Db } from './types.js';

// The scoped execution and the types are read from here by the rest of the app.
export * from './scope.js';
export * from './types.js';

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
  registerEngine(db, { kind: 'pglite', client });
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
  registerEngine(db, { kind: 'postgres', pool });
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
    const settled = new Promise<void>((resolve, reject) => (done = (err) => (err ? reject(err) : resolve())));
    void statementSpan('postgresql', text, parameterised, () => settled).catch(() => undefined);
    return query(...args.slice(0, -1), (err: unknown, res: unknown) => {
      done(err);
      (last as (e: unknown, r: unknown) => void)(err, res);
    });
  };
}
