// The custom-analysis queue: the API enqueues, a worker (in the API process, or `npm run worker` apart) runs the
// pipeline. A failed attempt is retried from scratch; after the last attempt, or when an attempt's process died and the
// job expired into the dead-letter queue, the analysis is marked failed and its partial rows are removed.
// Crashes: a run beats every few seconds; the recovery sweep (at start, then every 15 s) finds runs that stopped beating
// (their process ended), requeues them once, and fails them at the second crash, so that a poison upload can end a
// process at most twice. The reason a user sees is always the first real one.
// Fairness: every job is sent with the priority fairPriority gives it (round robin across tenants, in the database, so
// it holds across `npm run worker` processes); pg-boss fetches by priority, so its retries and expiry are unchanged.
import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import type { Deps } from '../../context.js';
import { sql } from 'drizzle-orm';
import { scopedRows, withScope } from '../../db/client.js';
import { analysisRowsPerSecond, analysisRuns } from '../../lib/metrics.js';
import { inSpan, jobSpan } from '../../lib/tracing.js';
import { failAnalysisRun, releaseAnalysisRun, runAnalysis } from './analyses.pipeline.js';
import { requeueCrashed, staleRuns } from './analyses.run.queries.js';
import { fairPriority } from '../../jobs/fair-queue.queries.js';
import { startBoss, type QueueSpec } from '../../jobs/queue.js';

export const ANALYSIS_QUEUE = 'custom-analysis';
export const ANALYSIS_DEAD_QUEUE = 'custom-analysis-failed';

export const analysisQueues: QueueSpec[] = [
  { name: ANALYSIS_DEAD_QUEUE, retryLimit: 3, retryDelay: 5, expireInSeconds: 300 },
  { name: ANALYSIS_QUEUE, retryLimit: 2, retryDelay: 2, expireInSeconds: 900, deadLetter: ANALYSIS_DEAD_QUEUE },
];

export type AnalysisJobData = { analysisId: string; tenantId: string };

export type AnalysisJobs = {
  /** Whether this process works analysis jobs: 'off' (left to `npm run worker`), 'running', or 'stopped' (not started, or ended). */
  state(): 'off' | 'running' | 'stopped';
  start(): Promise<void>;
  stop(): Promise<void>;
  enqueue(data: AnalysisJobData): Promise<void>;
};

const reasonOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** How often the recovery sweep looks for crashed runs (more often when ANALYSIS_STALE_RUN_SECONDS is under 45). */
export const SWEEP_SECONDS = 15;
/** A run that ended its process this many times is failed instead of requeued. */
export const MAX_CRASHES = 2;

/**
 * Requeues or fails runs that stopped beating (staleSeconds 0 at an embedded start: no other process can run one then).
 * Returns what it did, for the log and the tests.
 */
export async function recoverStaleRuns(
  deps: Deps,
  send: (data: AnalysisJobData) => Promise<void>,
  staleSeconds: number,
  log: FastifyBaseLogger = deps.log,
): Promise<{ requeued: string[]; failed: string[] }> {
  const out = { requeued: [] as string[], failed: [] as string[] };
  const stale = await withScope(deps.db, { kind: 'system' }, (tx) => staleRuns(tx, staleSeconds));
  for (const r of stale) {
    const crashes = r.crashes + 1;
    if (crashes >= MAX_CRASHES) {
      const during = r.phase ? ` (during its ${r.phase} step)` : '';
      log.error({ analysisId: r.id, crashes, phase: r.phase }, 'custom analysis ended its process again: failed, not retried');
      await failAnalysisRun(
        deps,
        r.tenant_id,
        r.id,
        `The analysis stopped the server ${crashes} times${during}, so it was not tried again. Check the file for unusual rows, or split it, and upload it again.`,
      );
      out.failed.push(r.id);
      continue;
    }
    if (await withScope(deps.db, { kind: 'tenant', tenantId: r.tenant_id }, (tx) => requeueCrashed(tx, r.tenant_id, r.id, staleSeconds))) {
      log.warn({ analysisId: r.id, phase: r.phase }, 'custom analysis run stopped beating (its process ended): requeued');
      await send({ analysisId: r.id, tenantId: r.tenant_id });
      out.requeued.push(r.id);
    }
  }
  return out;
}

/** Sends a job (by default an analysis) in its tenant's next round (see fair-queue.queries.ts). */
export async function sendFair(deps: Deps, b: PgBoss, data: AnalysisJobData, queue = ANALYSIS_QUEUE): Promise<void> {
  const priority = await withScope(deps.db, { kind: 'tenant', tenantId: data.tenantId }, (tx) => fairPriority(tx, data.tenantId, queue));
  await b.send(queue, data, { priority });
}

const send = (deps: Deps, b: PgBoss) => (data: AnalysisJobData) => sendFair(deps, b, data);

export function analysisJobs(deps: Deps, opts: { work?: boolean; log?: FastifyBaseLogger } = {}): AnalysisJobs {
  const log = opts.log ?? deps.log;
  const work = opts.work ?? deps.config.analysisWorkers;
  let boss: PgBoss | null = null;
  let starting: Promise<PgBoss> | null = null;
  let workerId: string | null = null;

  // Each attempt is a root span `job custom-analysis…` (lib/tracing.ts jobSpan), its statements its children.
  const handle = async ([job]: Array<PgBoss.JobWithMetadata<AnalysisJobData>>) => {
    if (!job) return;
    await jobSpan(ANALYSIS_QUEUE, { 'messaging.message.id': job.id, 'farmland.attempt': job.retryCount }, () => handleAttempt(job));
  };
  const handleAttempt = async (job: PgBoss.JobWithMetadata<AnalysisJobData>) => {
    const { analysisId, tenantId } = job.data;
    const started = performance.now();
    try {
      // Each phase's time and its longest statement (on PGlite: the longest any other request could wait behind it).
      const phases: Record<string, { ms: number; statements: number; over100ms: number; longestStatementMs: number }> = {};
      let longest = 0;
      let count = 0;
      let slow = 0;
      const result = await inSpan('analysis.run', { 'farmland.analysis_id': analysisId, 'farmland.attempt': job.retryCount }, () =>
        runAnalysis(deps, tenantId, analysisId, undefined, {
          onStatement: (ms) => {
            longest = Math.max(longest, ms);
            count++;
            if (ms > 100) slow++;
          },
          onPhase: (phase, ms) => {
            phases[phase] = { ms: Math.round(ms), statements: count, over100ms: slow, longestStatementMs: Math.round(longest) };
            longest = 0;
            count = 0;
            slow = 0;
          },
        }),
      );
      log.info({ analysisId, result, phases }, 'custom analysis finished');
      if (result === 'completed') {
        const seconds = (performance.now() - started) / 1000;
        analysisRuns.observe({ outcome: 'completed' }, seconds);
        const [row] = await scopedRows<{ n: number }>(
          deps.db,
          { kind: 'tenant', tenantId },
          sql`SELECT total_uploaded_data_count AS n FROM custom_analyses WHERE id = ${analysisId}`,
        ).catch(() => []);
        if (row && row.n > 0 && seconds > 0) analysisRowsPerSecond.observe(row.n / seconds);
      }
      // Embedded: the rows just written get planner statistics at the next quiet moment (PGlite runs no autovacuum).
      deps.database.maintenance?.wrote(['custom_analysis_rows']);
    } catch (err) {
      log.error({ err, analysisId, attempt: job.retryCount }, 'custom analysis attempt failed');
      const reason = `The analysis failed: ${reasonOf(err)}`;
      analysisRuns.observe({ outcome: 'failed' }, (performance.now() - started) / 1000);
      if (job.retryCount >= job.retryLimit) await failAnalysisRun(deps, tenantId, analysisId, reason).catch(() => undefined);
      else await releaseAnalysisRun(deps, tenantId, analysisId, reason).catch(() => undefined);
      throw err;
    }
  };

  const handleDead = async ([job]: Array<PgBoss.Job<AnalysisJobData>>) => {
    if (!job) return;
    const { analysisId, tenantId } = job.data;
    // Keeps an earlier attempt's real reason (failAnalysis never overwrites one) and never touches a completed analysis.
    await jobSpan(ANALYSIS_DEAD_QUEUE, { 'messaging.message.id': job.id, 'farmland.analysis_id': analysisId }, () =>
      failAnalysisRun(deps, tenantId, analysisId, 'The analysis stopped before it could finish (the worker ended). Upload it again.', true),
    );
  };

  let sweepTimer: NodeJS.Timeout | null = null;

  const ensure = async (): Promise<PgBoss> => {
    if (boss) return boss;
    starting ??= (async () => {
      const b = await startBoss(deps.database, analysisQueues, log);
      if (work) {
        // PGlite is one connection: one analysis at a time keeps every other request moving between its statements.
        workerId = await b.work<AnalysisJobData>(ANALYSIS_QUEUE, { batchSize: 1, pollingIntervalSeconds: 1, includeMetadata: true }, handle);
        await b.work<AnalysisJobData>(ANALYSIS_DEAD_QUEUE, { batchSize: 1, pollingIntervalSeconds: 5 }, handleDead);
        // Embedded: this process holds the data directory alone, so every run still 'processing' died with the last one.
        await recoverStaleRuns(deps, send(deps, b), deps.database.kind === 'pglite' ? 0 : deps.config.analysisStaleRunSeconds, log).catch((err: unknown) =>
          log.error({ err }, 'analysis recovery sweep failed'),
        );
        sweepTimer = setInterval(
          () => {
            void recoverStaleRuns(deps, send(deps, b), deps.config.analysisStaleRunSeconds, log).catch((err: unknown) =>
              log.error({ err }, 'analysis recovery sweep failed'),
            );
          },
          Math.min(SWEEP_SECONDS, Math.ceil(deps.config.analysisStaleRunSeconds / 3)) * 1000,
        );
        sweepTimer.unref();
      }
      boss = b;
      return b;
    })();
    return starting;
  };

  const jobs: AnalysisJobs = {
    state: () => (!work ? 'off' : boss ? 'running' : 'stopped'),
    start: async () => {
      await ensure();
    },
    stop: async () => {
      if (sweepTimer) clearInterval(sweepTimer);
      sweepTimer = null;
      const b = boss ?? (starting ? await starting.catch(() => null) : null);
      if (b) await b.stop({ graceful: true, close: false, wait: true, timeout: 10_000 });
      boss = null;
      starting = null;
      // A second app built on the same deps (tests do) and closed must not make the first look stopped.
      const list = runners.get(deps) ?? [];
      if (list.length > 1)
        runners.set(
          deps,
          list.filter((r) => r !== jobs),
        );
    },
    enqueue: async (data) => {
      const b = await ensure();
      await sendFair(deps, b, data);
      if (workerId) b.notifyWorker(workerId);
    },
  };
  runners.set(deps, [...(runners.get(deps) ?? []), jobs]);
  return jobs;
}

/** The runners made for each deps: one per process in production; tests can build a second app on the same deps. */
const runners = new WeakMap<Deps, AnalysisJobs[]>();

/** The analysis job runner made for these deps (by the analyses routes, or the worker), for readiness: a running one
 *  when there is one, else the last made. */
export const jobRunnerOf = (deps: Deps): AnalysisJobs | undefined => {
  const list = runners.get(deps) ?? [];
  return list.find((r) => r.state() === 'running') ?? list.at(-1);
};
