// Opens the database in either mode: embedded PGlite with PostGIS (default) or PostgreSQL through DATABASE_URL.
// Both run the same committed migrations; the app then works as the farmland_app role so row-level security applies.
import fs from 'node:fs';
import path from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
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
  /** PGlite only: the data directory as a gzipped tarball (test templates). */
  dumpDataDir?(): Promise<Blob>;
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
  // Switching roles on the one shared connection would let a concurrent query run as superuser, so admin work is
  // allowed only during boot, before the server listens (sealAdmin), when nothing else runs.
  let sealed = false;
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
    sealAdmin: () => {
      sealed = true;
    },
    close: async () => {
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
  return {
    kind: 'postgres',
    db,
    adminExec: async (text) => void (await admin.query(text)),
    adminQuery: async <T>(text: string, params: unknown[] = []) => (await admin.query(text, params)).rows as T[],
    query: async <T>(text: string, params: unknown[] = []) => (await pool.query(text, params)).rows as T[],
    // On PostgreSQL admin statements use their own pool and role: nothing to seal.
    sealAdmin: () => undefined,
    close: async () => {
      await Promise.allSettled([pool.end(), admin.end()]);
    },
  };
}

export type Scope = { kind: 'tenant'; tenantId: string } | { kind: 'provider' } | { kind: 'system' };

/**
 * Runs fn in one transaction with the row-level-security scope set for its duration.
 * Every read and write of tenant data goes through here; the service passes the scope from the session.
 */
export async function withScope<T>(db: Db, scope: Scope, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`SELECT set_config('app.scope', ${scope.kind}, true), set_config('app.tenant_id', ${scope.kind === 'tenant' ? scope.tenantId : ''}, true)`,
    );
    return fn(tx);
  });
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
