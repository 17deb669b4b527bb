// Process entry: configuration, logger, database, HTTP listener and graceful shutdown. With API_PROCESSES above 1
// (PostgreSQL only) this process becomes the primary of a node:cluster: it migrates and seeds once, then forks that many
// API processes that share the port, replaces one that dies, and stops them all on SIGTERM (cluster.ts).
import cluster from 'node:cluster';
import { buildApp } from './app.js';
import { bootstrap, createLogger } from './bootstrap.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { UnsafeDatabaseRoleError } from './db/client.js';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './seed/seed-demo.js';
import { clearServerRecord, liveServer, writeServerRecord } from './lib/instance-lock.js';
import { runClusterPrimary } from './cluster.js';
import { startMallocTrim } from './lib/malloc-trim.js';
import { regroupPendingTenants } from './modules/farm-overlaps/farm-overlaps.regroup.js';
import { startTracing } from './lib/tracing.js';
import { version } from './version.js';
import { flushOutbox } from './modules/mail/mail.service.js';

async function main(): Promise<void> {
  const started = Date.now();
  const config = loadConfig();
  const log = createLogger(config);
  if (config.apiProcesses > 1 && cluster.isPrimary) {
    await runClusterPrimary(config, log, () => prepareDatabase(config, log));
    return;
  }
  // In a cluster, the first API process alone prints the banner and flushes the mail outbox.
  const first = !cluster.isWorker || process.env['API_PROCESS_INDEX'] === '0';
  const other = config.database.kind === 'pglite' ? liveServer(config.dataDir) : null;
  if (other && other.pid !== process.pid) {
    throw new ConfigError(
      `Another server (pid ${other.pid}, port ${other.port}) is using the embedded database in ${config.dataDir}. Stop it first, or set DATA_DIR.`,
    );
  }
  // Tracing first, so that the app's hooks see it (OTEL_EXPORTER_OTLP_ENDPOINT; unset: nothing is loaded).
  const tracing = await startTracing(config, 'farmland-api', version);
  if (tracing) log.info({ endpoint: config.otlpEndpoint }, 'OpenTelemetry tracing on');
  const { deps, database, timings } = await bootstrap(config, log);
  const app = await buildApp(deps, { logger: log, serveWeb: true });
  let stopTrim: () => void = () => undefined;
  let mailTimer: NodeJS.Timeout | null = null;
  // The signal handlers go in before the port answers: a supervisor (or a test) that sees the server healthy may stop it
  // at once, and a SIGTERM before them would end the process by the signal's default action instead of a drained close.
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down: draining requests');
    if (mailTimer) clearInterval(mailTimer);
    stopTrim();
    database.maintenance?.stop();
    const force = setTimeout(() => {
      log.error('shutdown took longer than 10 s; exiting');
      process.exit(1);
    }, 10_000);
    force.unref();
    try {
      await app.close();
      await database.close();
      log.info('shutdown complete');
      process.exit(0);
    } catch (err) {
      log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ host: config.host, port: config.port });
  database.sealAdmin();
  if (database.kind === 'pglite') {
    const address = app.server.address();
    writeServerRecord(config.dataDir, { pid: process.pid, port: typeof address === 'object' && address ? address.port : config.port });
    process.on('exit', () => clearServerRecord(config.dataDir));
  }
  // Where the memory is at start (docs/decisions/0012-embedded-footprint.md): the process, this thread's JS heap, and on
  // PGlite the database thread's JS heap and WebAssembly heap.
  const main = process.memoryUsage();
  const db = database.memory ? await database.memory() : null;
  const mb = (n: number) => Math.round(n / 1048576);
  const memory = {
    rss_mb: mb(main.rss),
    main_heap_mb: mb(main.heapUsed),
    main_external_mb: mb(main.external),
    ...(db ? { db_heap_mb: mb(db.heapUsed), db_external_mb: mb(db.external), db_wasm_heap_mb: mb(db.wasmMemory) } : {}),
  };
  log.info({ ...timings, ready_ms: Date.now() - started, engine: database.kind, ...memory }, `listening on ${config.publicUrl}`);
  if (config.seedDemo && first) {
    process.stdout.write(
      `\n  Farmland platform: ${config.publicUrl}   (API docs: ${config.publicUrl}/api/docs)\n` +
        `  Demo sign-in (password for all: ${DEMO_PASSWORD}); two-factor is enrolled at first sign-in:\n` +
        `    provider super-admin  ${DEMO_ACCOUNTS.superAdmin}\n` +
        `    tenant A admin        ${DEMO_ACCOUNTS.adminA}   (Oyo Agro Cooperative, Platform license)\n` +
        `    tenant B admin        ${DEMO_ACCOUNTS.adminB}   (Green Harvest SDK Ltd, SDK license)\n\n`,
    );
  }

  stopTrim = await startMallocTrim(log, config.memoryTrimIntervalMs);
  if (closing) return stopTrim();
  // Embedded only (PGlite runs no autovacuum); PostgreSQL's own autovacuum does this there.
  database.maintenance?.start({ idleMs: config.embeddedMaintenanceIdleMs, log });
  // Registries waiting for a re-grouping under the overlap tolerance (migration 0029, or a change cut short by a stop):
  // once, in the background, in short batched transactions (modules/farms/farm-overlaps.regroup.ts).
  if (first) void regroupPendingTenants(deps.db, log).catch((err: unknown) => log.error({ err }, 're-grouping the pending registries failed'));
  mailTimer = config.mail.smtpUrl && first ? setInterval(() => void flushOutbox(deps).catch((err) => log.error({ err }, 'outbox flush failed')), 5000) : null;
}

/** The primary's one pass over the database before it forks: migrations, lookups and the demo (when asked). */
async function prepareDatabase(config: Config, log: ReturnType<typeof createLogger>): Promise<void> {
  const { database, timings } = await bootstrap(config, log);
  await database.close();
  log.info({ ...timings }, 'database ready');
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof UnsafeDatabaseRoleError) {
    process.stderr.write(`${err.message}\n`);
  } else {
    process.stderr.write(`Failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  }
  process.exit(1);
});
