// Worker process entry (`npm run worker`): runs the background jobs (custom analyses, reference-layer loads, webhook deliveries) apart from the API, in PostgreSQL
// mode. Run API replicas with ANALYSIS_WORKERS=off and as many of these as the analyses need; they share the queue.
// WORKER_HEALTH_PORT: the worker also serves /api/health, /api/ready and /api/metrics on that port (ops-app.ts).
import { bootstrap, createLogger } from './bootstrap.js';
import { ConfigError, loadConfig } from './config.js';
import { analysisJobs } from './modules/analyses/analyses.job.js';
import { layerJobs } from './modules/reference-layers/reference-layers.job.js';
import { webhookJobs } from './modules/webhooks/webhooks.job.js';
import { buildOpsApp } from './ops-app.js';
import { startMallocTrim } from './lib/malloc-trim.js';
import { startTracing } from './lib/tracing.js';
import { version } from './version.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger(config);
  if (config.database.kind !== 'postgres') {
    throw new ConfigError('npm run worker needs DATABASE_URL (PostgreSQL). In embedded mode the API process runs the jobs itself.');
  }
  if (await startTracing(config, 'farmland-worker', version)) log.info({ endpoint: config.otlpEndpoint }, 'OpenTelemetry tracing on');
  const { deps, database } = await bootstrap(config, log, { seed: false });
  const jobs = analysisJobs(deps, { work: true, log });
  await jobs.start();
  const layers = layerJobs(deps, { work: true, log });
  await layers.start();
  const hooks = webhookJobs(deps, { work: true, log });
  await hooks.start();
  // Readiness and metrics on the worker's own port, only when asked (after the job runners started: readiness reports them).
  const ops = config.workerHealthPort !== null ? await buildOpsApp(deps) : null;
  let stopTrim: () => void = () => undefined;

  // The signal handlers go in before the port answers: a supervisor that sees the worker ready may stop it at once, and
  // a SIGTERM before them would end the process by the signal's default action instead of a clean shutdown.
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'worker stopping: finishing the current job');
    stopTrim();
    const force = setTimeout(() => process.exit(1), 30_000);
    force.unref();
    try {
      await ops?.close();
      await jobs.stop();
      await layers.stop();
      await hooks.stop();
      await database.close();
      process.exit(0);
    } catch (err) {
      log.error({ err }, 'worker shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  stopTrim = await startMallocTrim(log, config.memoryTrimIntervalMs);
  if (closing) {
    stopTrim();
    return;
  }
  if (ops) {
    const address = await ops.listen({ host: config.host, port: config.workerHealthPort! });
    log.info({ address }, 'worker health and metrics listening');
  }
  log.info('worker started: custom-analysis, reference-layer and webhook jobs');
}

main().catch((err: unknown) => {
  process.stderr.write(
    `${err instanceof ConfigError ? err.message : `Worker failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`}\n`,
  );
  process.exit(1);
});
