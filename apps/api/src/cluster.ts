// API_PROCESSES above 1 (PostgreSQL only): this process is the primary of a node:cluster. It prepares the database once
// (migrations, lookups, the demo when asked), then forks API processes that share the port; Node's primary hands each
// new connection to them in turn. Only the first runs analysis jobs (when ANALYSIS_WORKERS is on) and the mail outbox,
// so that a cluster works as many analyses at once as one process. A process that dies is replaced after a second; five
// deaths within a minute stop the whole server (a crash loop needs a person). SIGTERM or SIGINT stops every process
// gracefully (each drains its requests, with its own 10 s limit), then the primary.
import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import type { Config } from './config.js';

const RESTART_DELAY_MS = 1000;
const CRASH_LOOP = { deaths: 5, withinMs: 60_000 };

export async function runClusterPrimary(config: Config, log: Logger, prepare: () => Promise<void>): Promise<void> {
  await prepare();
  const workers = new Map<number, Worker>();
  const deaths: number[] = [];
  let stopping = false;

  const fork = (index: number) => {
    const worker = cluster.fork({
      API_PROCESS_INDEX: String(index),
      // The first process keeps the configured setting; the others only enqueue.
      ...(index > 0 ? { ANALYSIS_WORKERS: 'off' } : {}),
      // The primary has migrated and seeded: the API processes find both done.
    });
    workers.set(index, worker);
    worker.on('exit', (code, signal) => {
      if (workers.get(index) === worker) workers.delete(index);
      if (stopping) {
        if (workers.size === 0) {
          log.info('shutdown complete');
          process.exit(Number(process.exitCode ?? 0));
        }
        return;
      }
      const now = Date.now();
      deaths.push(now);
      while (deaths.length > 0 && deaths[0]! < now - CRASH_LOOP.withinMs) deaths.shift();
      if (deaths.length >= CRASH_LOOP.deaths) {
        log.fatal({ index, code, signal }, `${deaths.length} API processes died within a minute; stopping the server`);
        stop('crash loop', 1);
        return;
      }
      log.error({ index, pid: worker.process.pid, code, signal }, 'an API process died; starting another');
      setTimeout(() => {
        if (!stopping) fork(index);
      }, RESTART_DELAY_MS).unref();
    });
  };

  const stop = (reason: string, exitCode = 0) => {
    if (stopping) return;
    stopping = true;
    process.exitCode = exitCode;
    log.info({ reason, processes: workers.size }, 'shutting down: stopping the API processes');
    if (workers.size === 0) process.exit(exitCode);
    for (const w of workers.values()) w.process.kill('SIGTERM');
    // Each process forces its own exit after 10 s; this is the primary's last resort.
    setTimeout(() => {
      for (const w of workers.values()) w.process.kill('SIGKILL');
      process.exit(exitCode || 1);
    }, 15_000).unref();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  for (let i = 0; i < config.apiProcesses; i++) fork(i);
  log.info({ processes: config.apiProcesses, port: config.port }, `cluster primary: ${config.apiProcesses} API processes`);
}
