// The custom-analysis queue: the API enqueues, a worker (in the API process, or `npm run worker` apart) runs the
// pipeline. A failed attempt is retried from scratch; after the last attempt, or when an attempt's process died and the
// job expired into the dead-letter queue, the analysis is marked failed and its partial rows are removed.
import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import type { Deps } from '../context.js';
import { failAnalysisRun, runAnalysis } from '../modules/analyses/analyses.pipeline.js';
import { startBoss, type QueueSpec } from './queue.js';

export const ANALYSIS_QUEUE = 'custom-analysis';
export const ANALYSIS_DEAD_QUEUE = 'custom-analysis-failed';

export const analysisQueues: QueueSpec[] = [
  { name: ANALYSIS_DEAD_QUEUE, retryLimit: 3, retryDelay: 5, expireInSeconds: 300 },
  { name: ANALYSIS_QUEUE, retryLimit: 2, retryDelay: 2, expireInSeconds: 900, deadLetter: ANALYSIS_DEAD_QUEUE },
];

export type AnalysisJobData = { analysisId: string; tenantId: string };

export type AnalysisJobs = {
  start(): Promise<void>;
  stop(): Promise<void>;
  enqueue(data: AnalysisJobData): Promise<void>;
};

const reasonOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

export function analysisJobs(deps: Deps, opts: { work?: boolean; log?: FastifyBaseLogger } = {}): AnalysisJobs {
  const log = opts.log ?? deps.log;
  const work = opts.work ?? deps.config.analysisWorkers;
  let boss: PgBoss | null = null;
  let starting: Promise<PgBoss> | null = null;
  let workerId: string | null = null;

  const handle = async ([job]: Array<PgBoss.JobWithMetadata<AnalysisJobData>>) => {
    if (!job) return;
    const { analysisId, tenantId } = job.data;
    try {
      const result = await runAnalysis(deps, tenantId, analysisId);
      log.info({ analysisId, result }, 'custom analysis finished');
    } catch (err) {
      log.error({ err, analysisId, attempt: job.retryCount }, 'custom analysis attempt failed');
      if (job.retryCount >= job.retryLimit) await failAnalysisRun(deps, tenantId, analysisId, `The analysis failed: ${reasonOf(err)}`).catch(() => undefined);
      throw err;
    }
  };

  const handleDead = async ([job]: Array<PgBoss.Job<AnalysisJobData>>) => {
    if (!job) return;
    const { analysisId, tenantId } = job.data;
    await failAnalysisRun(deps, tenantId, analysisId, 'The analysis stopped before it could finish (the worker ended). Upload it again.');
  };

  const ensure = async (): Promise<PgBoss> => {
    if (boss) return boss;
    starting ??= (async () => {
      const b = await startBoss(deps.database, analysisQueues, log);
      if (work) {
        // PGlite is one connection: one analysis at a time keeps every other request moving between its statements.
        workerId = await b.work<AnalysisJobData>(ANALYSIS_QUEUE, { batchSize: 1, pollingIntervalSeconds: 1, includeMetadata: true }, handle);
        await b.work<AnalysisJobData>(ANALYSIS_DEAD_QUEUE, { batchSize: 1, pollingIntervalSeconds: 5 }, handleDead);
      }
      boss = b;
      return b;
    })();
    return starting;
  };

  return {
    start: async () => {
      await ensure();
    },
    stop: async () => {
      const b = boss ?? (starting ? await starting.catch(() => null) : null);
      if (b) await b.stop({ graceful: true, close: false, wait: true, timeout: 10_000 });
      boss = null;
      starting = null;
    },
    enqueue: async (data) => {
      const b = await ensure();
      await b.send(ANALYSIS_QUEUE, data);
      if (workerId) b.notifyWorker(workerId);
    },
  };
}
