// pg-boss 10 on either engine. The owner's connection installs pg-boss's schema and queues and grants them to
// farmland_app at boot; the app then sends and works jobs as farmland_app (PGlite through its one in-process connection,
// where statements without parameters go through exec because the extended protocol refuses multi-statement SQL).
import PgBoss from 'pg-boss';
import type { PGlite } from '@electric-sql/pglite';
import type { FastifyBaseLogger } from 'fastify';
import { APP_ROLE, type Database } from '../db/client.js';
import { BOSS_SCHEMA, installFairIndex } from './fair-queue.queries.js';

export type QueueSpec = { name: string; retryLimit: number; retryDelay: number; expireInSeconds: number; deadLetter?: string };

type BossDb = { executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> };

const MULTI = /cannot insert multiple commands into a prepared statement/i;

/** The raw PGlite client behind drizzle (the app's one connection, already SET ROLE farmland_app). */
function pgliteClient(database: Database): PGlite {
  const client = (database.db as unknown as { $client?: PGlite }).$client;
  if (!client) throw new Error('PGlite client not reachable through drizzle');
  return client;
}

/** pg-boss's database port over the app role. */
function appDb(database: Database): BossDb {
  if (database.kind === 'postgres') {
    // node-postgres uses the simple protocol when there are no parameters, so multi-statement SQL works as is.
    return { executeSql: async (text, values) => ({ rows: (await database.query(text, values ?? [])) ?? [] }) };
  }
  // Its polls (every second) go through the client's background view (pglite-remote.ts): they do not count as activity,
  // so the embedded maintenance schedule still finds the database idle between them.
  const raw = pgliteClient(database) as unknown as { background?: () => Pick<PGlite, 'query' | 'exec'> };
  const client = raw.background ? raw.background() : (raw as unknown as PGlite);
  return {
    executeSql: async (text, values) => {
      if (values && values.length > 0) return { rows: (await client.query(text, values)).rows };
      try {
        const results = await client.exec(text);
        return { rows: results[results.length - 1]?.rows ?? [] };
      } catch (err) {
        // A failed statement inside pg-boss's BEGIN … COMMIT would leave the shared connection in an aborted transaction.
        await client.exec('ROLLBACK').catch(() => undefined);
        throw err;
      }
    },
  };
}

/** pg-boss's database port over the owner's connection (install and queue creation only, at boot). */
function adminDb(database: Database): BossDb {
  return {
    executeSql: async (text, values) => {
      try {
        return { rows: (await database.adminQuery(text, values ?? [])) ?? [] };
      } catch (err) {
        if (!(values && values.length > 0) && err instanceof Error && MULTI.test(err.message)) {
          await database.adminExec(text);
          return { rows: [] };
        }
        throw err;
      }
    },
  };
}

/** Installs (or migrates) pg-boss's schema, creates the queues and grants everything to the app role. Idempotent. */
export async function installQueues(database: Database, specs: QueueSpec[]): Promise<void> {
  const admin = new PgBoss({ db: adminDb(database), schema: BOSS_SCHEMA, supervise: false, schedule: false, migrate: true });
  admin.on('error', () => undefined);
  await admin.start();
  const existing = new Set((await admin.getQueues()).map((q) => q.name));
  // Dead-letter queues first: a queue's dead_letter references another queue.
  const ordered = [...specs].sort((a, b) => Number(Boolean(a.deadLetter)) - Number(Boolean(b.deadLetter)));
  for (const s of ordered) {
    if (existing.has(s.name)) continue;
    await admin.createQueue(s.name, {
      name: s.name,
      policy: 'standard',
      retryLimit: s.retryLimit,
      retryDelay: s.retryDelay,
      expireInSeconds: s.expireInSeconds,
      retentionDays: 7,
      ...(s.deadLetter ? { deadLetter: s.deadLetter } : {}),
    });
  }
  await admin.stop({ graceful: false, close: false, wait: true });
  await installFairIndex(database);
  await database.adminExec(`
    GRANT USAGE ON SCHEMA ${BOSS_SCHEMA} TO ${APP_ROLE};
    GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${BOSS_SCHEMA} TO ${APP_ROLE};
    GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA ${BOSS_SCHEMA} TO ${APP_ROLE};`);
}

export type Boss = PgBoss;

export async function startBoss(database: Database, specs: QueueSpec[], log: FastifyBaseLogger): Promise<PgBoss> {
  await installQueues(database, specs);
  const boss = new PgBoss({
    db: appDb(database),
    schema: BOSS_SCHEMA,
    migrate: false,
    schedule: false,
    supervise: true,
    maintenanceIntervalSeconds: 60,
  });
  boss.on('error', (err) => log.error({ err }, 'job queue error'));
  await boss.start();
  return boss;
}
