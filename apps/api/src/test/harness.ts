// The API test harness: one database and one app per Vitest worker (PGlite from the prepared template, or a fresh
// PostgreSQL database cloned from the template when TEST_DATABASE_URL is set), the demo data as fixtures, and the
// named personas of the guide: a super-admin, an admin and an agent of tenant A, and an admin of tenant B.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../app.js';
import { loadConfig, type Config } from '../config.js';
import type { Deps } from '../context.js';
import { openDatabase, queryRows, withScope, type Database } from '../db/client.js';
import { DEMO_ACCOUNTS, seedDemoIfEmpty } from '../seed/seed-demo.js';
import { deriveKeys, randomToken, sha256 } from '../lib/crypto.js';
import { localStorage } from '../lib/storage.js';
import { insertRefreshToken, insertSession } from '../modules/auth/auth.queries.js';
import { signAccessToken } from '../modules/auth/tokens.js';
import { PG_TEST_ROLE, pgliteTemplatePath, pgTemplateName, withDatabase } from './engine.js';
import pino from 'pino';

export type Persona = 'anonymous' | 'super' | 'adminA' | 'agentA' | 'adminB';
export const PERSONAS: Persona[] = ['anonymous', 'super', 'adminA', 'agentA', 'adminB'];

export type Fixtures = {
  superId: string;
  tenantA: string;
  tenantB: string;
  adminA: string;
  agentA: string;
  adminB: string;
  agentB: string;
};

export type Res<T = any> = { status: number; body: T; headers: Record<string, unknown>; raw: string; bytes: Buffer };

export type Caller = {
  token: string | null;
  request<T = any>(opts: InjectOptions): Promise<Res<T>>;
  get<T = any>(url: string, headers?: Record<string, string>): Promise<Res<T>>;
  post<T = any>(url: string, body?: unknown, headers?: Record<string, string>): Promise<Res<T>>;
  put<T = any>(url: string, body?: unknown, headers?: Record<string, string>): Promise<Res<T>>;
  patch<T = any>(url: string, body?: unknown, headers?: Record<string, string>): Promise<Res<T>>;
  delete<T = any>(url: string, body?: unknown, headers?: Record<string, string>): Promise<Res<T>>;
};

export type TestEnv = {
  app: FastifyInstance;
  deps: Deps;
  database: Database;
  config: Config;
  fx: Fixtures;
  engine: 'pglite' | 'postgres';
  /** PostgreSQL only: the owner's URL of this worker's database. */
  adminUrl: string | null;
  as(persona: Persona): Caller;
  /** A caller with a brand-new session for the user (no sign-in flow; for tests of everything but sign-in). */
  sessionFor(userId: string): Promise<Caller>;
  /** What the app logged at warn level or above (the server's own log, kept in memory): a 5xx logs 'unhandled error'. */
  serverLog: ServerLogLine[];
  /** Runs SQL with the system scope (for arranging and inspecting state). */
  sql<T>(query: ReturnType<typeof sql>): Promise<T[]>;
};

export type ServerLogLine = { level: number; msg: string; route?: string; err?: { message?: string } };

let envPromise: Promise<TestEnv> | null = null;

export function testEnv(): Promise<TestEnv> {
  envPromise ??= createEnv();
  return envPromise;
}

let adminUrl: string | null = null;

async function openTestDatabase(): Promise<Database> {
  const fp = process.env['FARMLAND_TEST_FP'];
  if (!fp) throw new Error('FARMLAND_TEST_FP is not set: run the tests through vitest (globalSetup prepares the template)');
  const url = process.env['TEST_DATABASE_URL'];
  if (!url) {
    const blob = new Blob([fs.readFileSync(pgliteTemplatePath(fp))]);
    return openDatabase({ kind: 'pglite', dataDir: null, loadDataDir: blob });
  }
  // The run's id keeps parallel runs (other checkouts on the same server) from dropping each other's databases.
  const name = `farmland_t_${process.env['FARMLAND_TEST_RUN'] ?? 'x'}_${process.pid}_${randomToken(4)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, 'x')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${pgTemplateName(fp)}`);
  await admin.end();
  adminUrl = withDatabase(url, name);
  return openDatabase({ kind: 'postgres', url: withDatabase(url, name, PG_TEST_ROLE), adminUrl, poolSize: 4 });
}

export function testConfig(dataDir: string, overrides: Partial<Config> = {}): Config {
  return loadConfig(
    // No load shedding on event-loop delay: a test's own synchronous work (building a large file, a fuzz run) must not get
    // its next request shed; nor on requests in flight: a test may send many at once. plugins/ops.test.ts turns shedding
    // on through the configuration.
    {
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      APP_SECRET: 'test-secret-that-is-long-enough-0123456789',
      LOG_LEVEL: 'silent',
      COOKIE_SECURE: 'true',
      LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
      LOAD_SHED_MAX_IN_FLIGHT: '0',
    },
    overrides,
  );
}

async function createEnv(): Promise<TestEnv> {
  const database = await openTestDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'farmland-test-'));
  const config = testConfig(dataDir);
  const deps: Deps = {
    config,
    database,
    db: database.db,
    keys: deriveKeys(config.secret, config.payload.keyVersion),
    storage: localStorage(path.join(dataDir, 'files')),
    log: pino({ level: 'silent' }),
  };
  await seedDemoIfEmpty(database);
  const serverLog: ServerLogLine[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => void serverLog.push(JSON.parse(line) as ServerLogLine) });
  const app = await buildApp(deps, { logger });
  await app.ready();

  const q = <T>(query: ReturnType<typeof sql>) => withScope(deps.db, { kind: 'system' }, (tx) => queryRows<T>(tx, query));
  const one = async (query: ReturnType<typeof sql>) => {
    const rows = await q<{ id: string }>(query);
    if (!rows[0]) throw new Error('fixture not found');
    return rows[0].id;
  };
  const adminA = await one(sql`SELECT id FROM users WHERE email = ${DEMO_ACCOUNTS.adminA}`);
  const adminB = await one(sql`SELECT id FROM users WHERE email = ${DEMO_ACCOUNTS.adminB}`);
  const tenantA = await one(sql`SELECT tenant_id AS id FROM users WHERE id = ${adminA}`);
  const tenantB = await one(sql`SELECT tenant_id AS id FROM users WHERE id = ${adminB}`);
  const fx: Fixtures = {
    superId: await one(sql`SELECT id FROM users WHERE email = ${DEMO_ACCOUNTS.superAdmin}`),
    tenantA,
    tenantB,
    adminA,
    adminB,
    agentA: await one(sql`SELECT id FROM users WHERE tenant_id = ${tenantA} AND role = 'agent' AND NOT is_suspended ORDER BY email LIMIT 1`),
    agentB: await one(sql`SELECT id FROM users WHERE tenant_id = ${tenantB} AND role = 'agent' AND NOT is_suspended ORDER BY email LIMIT 1`),
  };

  // A caller's access token lives 15 minutes, like any client's; a worker that runs longer (a loaded machine, a long
  // suite) signs its session a fresh one, as a client would refresh, instead of every later test getting 401.
  const makeCaller = (initial: string | null, reissue?: () => Promise<string>): Caller => {
    let token = initial;
    let issuedAt = Date.now();
    const request = async <T>(opts: InjectOptions): Promise<Res<T>> => {
      if (reissue && Date.now() - issuedAt > 10 * 60_000) {
        token = await reissue();
        issuedAt = Date.now();
      }
      const headers = { ...(opts.headers ?? {}), ...(token ? { authorization: `Bearer ${token}` } : {}) };
      // Each request comes from its own loopback address unless the test pins one, so that per-IP sign-in
      // throttling in one test never spills into another.
      const remoteAddress =
        opts.remoteAddress ?? `127.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;
      const res = await app.inject({ ...opts, headers, remoteAddress });
      let body: unknown = res.body;
      if ((res.headers['content-type'] ?? '').toString().includes('application/json') && res.body) body = JSON.parse(res.body);
      return { status: res.statusCode, body: body as T, headers: res.headers, raw: res.body, bytes: res.rawPayload };
    };
    const withBody =
      (method: 'POST' | 'PUT' | 'PATCH' | 'DELETE') =>
      <T>(url: string, body?: unknown, headers?: Record<string, string>) =>
        request<T>({ method, url, ...(body !== undefined ? { payload: body as InjectOptions['payload'] } : {}), ...(headers ? { headers } : {}) });
    return {
      get token() {
        return token;
      },
      request,
      get: <T>(url: string, headers?: Record<string, string>) => request<T>({ method: 'GET', url, ...(headers ? { headers } : {}) }),
      post: withBody('POST'),
      put: withBody('PUT'),
      patch: withBody('PATCH'),
      delete: withBody('DELETE'),
    };
  };

  const sessionFor = async (userId: string): Promise<Caller> => {
    const token = await withScope(deps.db, { kind: 'system' }, async (tx) => {
      const [u] = await queryRows<{ role: 'super_admin' | 'tenant_admin' | 'agent'; tenant_id: string | null }>(
        tx,
        sql`SELECT role, tenant_id FROM users WHERE id = ${userId}`,
      );
      if (!u) throw new Error(`no user ${userId}`);
      const expiresAt = new Date(Date.now() + 6 * 3600_000);
      const sid = await insertSession(tx, { userId, tenantId: u.tenant_id, platform: 'api', ip: '127.0.0.1', userAgent: 'vitest', expiresAt });
      await insertRefreshToken(tx, sid, sha256(randomToken()), expiresAt);
      const claims = { sub: userId, sid, role: u.role, tid: u.tenant_id };
      return { claims, token: await signAccessToken(deps.keys.jwt, config.jwt, claims) };
    });
    return makeCaller(token.token, () => signAccessToken(deps.keys.jwt, config.jwt, token.claims));
  };

  const callers: Record<Persona, Caller> = {
    anonymous: makeCaller(null),
    super: await sessionFor(fx.superId),
    adminA: await sessionFor(fx.adminA),
    agentA: await sessionFor(fx.agentA),
    adminB: await sessionFor(fx.adminB),
  };

  return {
    app,
    deps,
    database,
    config,
    fx,
    engine: database.kind,
    adminUrl,
    as: (p) => callers[p],
    sessionFor,
    serverLog,
    sql: q,
  };
}
