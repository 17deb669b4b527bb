// GET /api/health: the database answers a query, and which version and engine are running; also the longest
// event-loop block of the last minute (the soak and operators watch it). That is liveness.
// GET /api/ready (the name) and GET /api/health/ready (the first name, kept for probes already configured):
// readiness, for a load balancer or an orchestrator: the database answers, its migrations are the ones this build ships,
// the file store answers, and this process's analysis job runner is up (when it runs one). `npm run worker` serves the
// same routes on WORKER_HEALTH_PORT (ops-app.ts).
import fs from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Deps } from '../../context.js';
import { migrationsFolder } from '../../db/client.js';
import { jobRunnerOf } from '../analyses/analyses.job.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { version } from '../../version.js';

const health = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.enum(['ok', 'unreachable']),
  engine: z.enum(['pglite', 'postgres']),
  version: z.string(),
  uptime_seconds: z.number(),
  /** The longest delay of the event loop over the last 60 s (10 s windows), in ms. */
  event_loop_max_ms: z.number(),
});

const check = z.enum(['ok', 'failed', 'off']);
const readiness = z.object({
  status: z.enum(['ready', 'not_ready']),
  checks: z.object({
    database: check,
    /** failed: the database has fewer migrations applied than this build ships (or they cannot be read). */
    migrations: check,
    storage: check,
    /** off: this process does not work analysis jobs (ANALYSIS_WORKERS=off; `npm run worker` does). */
    jobs: check,
  }),
});
export type Readiness = z.infer<typeof readiness>;

/** The migrations this build ships (drizzle/meta/_journal.json). */
const shippedMigrations = () => (JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as { entries: unknown[] }).entries.length;

const within = <T>(ms: number, p: Promise<T>) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref())]);

/** The readiness checks, each bounded to 2 s; a failure is logged with its cause (never a secret: messages only). */
export async function readinessOf(deps: Deps): Promise<Readiness> {
  const run = async (name: string, fn: () => Promise<void>): Promise<'ok' | 'failed'> => {
    try {
      await within(2000, fn());
      return 'ok';
    } catch (err) {
      deps.log.warn({ check: name, reason: err instanceof Error ? err.message : String(err) }, 'readiness check failed');
      return 'failed';
    }
  };
  const [database, migrations, storage] = await Promise.all([
    run('database', async () => void (await deps.database.query('SELECT 1'))),
    // Embedded: the one process holding the data directory migrated it at boot, or it did not start.
    run('migrations', async () => {
      if (!deps.database.appliedMigrations) return;
      const applied = await deps.database.appliedMigrations();
      if (applied < shippedMigrations()) throw new Error(`${applied} of ${shippedMigrations()} migrations applied`);
    }),
    // A read of a key that is not there: the store answers, and the credentials are accepted.
    run('storage', async () => void (await deps.storage.get('ops/readiness-probe'))),
  ]);
  const runner = jobRunnerOf(deps)?.state() ?? 'off';
  const jobs = runner === 'off' ? 'off' : runner === 'running' ? 'ok' : 'failed';
  const checks = { database, migrations, storage, jobs } as const;
  return { status: Object.values(checks).includes('failed') ? 'not_ready' : 'ready', checks };
}

/** Event-loop delay in 10 s windows; the last six windows' maxima make the minute. */
function eventLoopWatch() {
  const histogram = monitorEventLoopDelay({ resolution: 20 });
  histogram.enable();
  const windows: number[] = [];
  const timer = setInterval(() => {
    windows.push(histogram.max / 1e6);
    if (windows.length > 6) windows.shift();
    histogram.reset();
  }, 10_000);
  timer.unref();
  return {
    maxLastMinute: () => Math.round(Math.max(histogram.max / 1e6, ...windows) * 10) / 10,
    stop: () => {
      clearInterval(timer);
      histogram.disable();
    },
  };
}

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  const loop = eventLoopWatch();
  app.addHook('onClose', async () => loop.stop());
  app.get('/health', {
    config: { access: 'public' },
    schema: { tags: ['operations'], summary: 'Liveness and database reachability', security: [], response: { 200: health, 503: health } },
    handler: async (_req, reply) => {
      let database: 'ok' | 'unreachable' = 'ok';
      try {
        await app.deps.database.query('SELECT 1');
      } catch (err) {
        app.log.error({ err }, 'health check: database unreachable');
        database = 'unreachable';
      }
      const body = { status: database === 'ok' ? ('ok' as const) : ('degraded' as const), database, engine: app.deps.database.kind, version, uptime_seconds: Math.round(process.uptime()), event_loop_max_ms: loop.maxLastMinute() };
      return reply.status(database === 'ok' ? 200 : 503).send(body);
    },
  });
  const ready = {
    config: { access: 'public' as const },
    schema: {
      tags: ['operations'],
      summary: 'Readiness: the database answers, its migrations are current, the file store answers, the job runner is up (503 otherwise); /api/health is liveness',
      security: [],
      response: { 200: readiness, 503: readiness },
    },
    handler: async (_req: FastifyRequest, reply: FastifyReply) => {
      const body = await readinessOf(app.deps);
      return reply.status(body.status === 'ready' ? 200 : 503).header('cache-control', 'no-store').send(body);
    },
  };
  app.get('/ready', ready);
  app.get('/health/ready', ready);
};
