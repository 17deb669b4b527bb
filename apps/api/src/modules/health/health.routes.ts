// GET /api/health: the database answers a query, and which version and engine are running; also the longest
// event-loop block of the last minute (the soak and operators watch it). That is liveness. It never waits behind the
// database's queue: it reports the last answer to a `SELECT 1` (and its age), and starts a new one when that answer is
// more than a second old, waiting for it at most FRESH_WAIT_MS (at rest it answers at once). A check under way for more
// than STALE_MS, or one that failed, makes the database `unreachable`. Readiness's database check is recorded too.
// GET /api/ready (the name) and GET /api/health/ready (the first name, kept for probes already configured):
// readiness, for a load balancer or an orchestrator: the database answers, its migrations are the ones this build ships,
// the file store answers, and this process's analysis job runner is up (when it runs one). `npm run worker` serves the
// same routes on WORKER_HEALTH_PORT (ops-app.ts).
import fs from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Deps } from '../../context.js';
import { migrationsFolder, type Database } from '../../db/client.js';
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
  /** How old `database` is: the milliseconds since the database answered (or failed) the check it reports; null: no answer yet. */
  database_checked_ms_ago: z.number().int().nullable(),
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
const shippedMigrations = () =>
  (JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as { entries: unknown[] }).entries.length;

const within = <T>(ms: number, p: Promise<T>) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref())]);

/** A database answer older than this starts a new check. */
const FRESH_MS = 1000;
/** How long a health probe waits for the check it started before answering with the last one. */
const FRESH_WAIT_MS = 20;
/** A check under way for longer than this makes the database unreachable (readiness gives up on its own after 2 s). */
const STALE_MS = 5000;

/**
 * The database checks (`SELECT 1`) of one database, shared by health and readiness (and by the apps built on the same
 * deps): the last answer, and the check under way; a second caller joins the check under way instead of queueing another.
 */
class DatabaseWatch {
  last: { ok: boolean; at: number } | null = null;
  running: { since: number; done: Promise<void> } | null = null;
  constructor(private readonly database: Database) {}

  check(): Promise<void> {
    // A check stuck for over STALE_MS (a connection that hangs) is left to itself, and a new one is started: the next
    // answer, not the stuck one, says when the database is back.
    if (this.running && performance.now() - this.running.since <= STALE_MS) return this.running.done;
    const run: { since: number; done: Promise<void> } = { since: performance.now(), done: Promise.resolve() };
    run.done = this.database.query('SELECT 1').then(
      () => this.settle(run, true),
      (err: unknown) => {
        this.settle(run, false);
        throw err;
      },
    );
    this.running = run;
    return run.done;
  }

  private settle(run: { since: number }, ok: boolean) {
    this.last = { ok, at: performance.now() };
    if (this.running === run) this.running = null;
  }

  /** The database as health reports it now, and the age of that answer. */
  state(): { database: 'ok' | 'unreachable'; ageMs: number | null } {
    const now = performance.now();
    const stuck = this.running !== null && now - this.running.since > STALE_MS;
    return { database: this.last?.ok && !stuck ? 'ok' : 'unreachable', ageMs: this.last ? Math.round(now - this.last.at) : null };
  }
}

const watches = new WeakMap<Database, DatabaseWatch>();
function watchOf(database: Database): DatabaseWatch {
  let w = watches.get(database);
  if (!w) watches.set(database, (w = new DatabaseWatch(database)));
  return w;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

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
    run('database', () => watchOf(deps.database).check()),
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
      const watch = watchOf(app.deps.database);
      if (!watch.last || performance.now() - watch.last.at > FRESH_MS) {
        const fresh = watch.check().catch((err: unknown) => void app.log.error({ err }, 'health check: database unreachable'));
        // The first probe waits for an answer (bounded); later ones wait a moment for the new one, else report the last.
        await (watch.last ? Promise.race([fresh, pause(FRESH_WAIT_MS)]) : within(STALE_MS, fresh).catch(() => undefined));
      }
      const { database, ageMs } = watch.state();
      const body = {
        status: database === 'ok' ? ('ok' as const) : ('degraded' as const),
        database,
        engine: app.deps.database.kind,
        version,
        uptime_seconds: Math.round(process.uptime()),
        event_loop_max_ms: loop.maxLastMinute(),
        database_checked_ms_ago: ageMs,
      };
      return reply.status(database === 'ok' ? 200 : 503).send(body);
    },
  });
  const ready = {
    config: { access: 'public' as const },
    schema: {
      tags: ['operations'],
      summary:
        'Readiness: the database answers, its migrations are current, the file store answers, the job runner is up (503 otherwise); /api/health is liveness',
      security: [],
      response: { 200: readiness, 503: readiness },
    },
    handler: async (_req: FastifyRequest, reply: FastifyReply) => {
      const body = await readinessOf(app.deps);
      return reply
        .status(body.status === 'ready' ? 200 : 503)
        .header('cache-control', 'no-store')
        .send(body);
    },
  };
  app.get('/ready', ready);
  app.get('/health/ready', ready);
};
