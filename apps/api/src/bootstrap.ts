// Opens everything a process needs (database migrated, lookups and demo data seeded, keys, storage) as one Deps object.
// Used by the server, the worker and the command-line tools alike.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pino, { type Logger, type LoggerOptions } from 'pino';
import type { Config } from './config.js';
import type { Deps } from './context.js';
import { openDatabase, type Database } from './db/client.js';
import { seedDemoIfEmpty } from './seed/seed-demo.js';
import { seedLookupsIfEmpty } from './seed/seed-lookups.js';
import { deriveKeys } from './lib/crypto.js';
import { REDACTED, SECRET_LOG_FIELDS } from './lib/log-redaction.js';
import { checkBucket, s3Storage } from './lib/storage-s3.js';
import { localStorage, type Storage } from './lib/storage.js';

/** APP_SECRET, or for development a random secret kept (mode 0600) in the data directory so that sessions survive restarts. */
export function resolveSecret(config: Config): string {
  if (config.secret) return config.secret;
  const file = path.join(config.dataDir, 'app-secret');
  fs.mkdirSync(config.dataDir, { recursive: true });
  if (!fs.existsSync(file)) fs.writeFileSync(file, crypto.randomBytes(48).toString('base64url'), { mode: 0o600 });
  return fs.readFileSync(file, 'utf8').trim();
}

/** How often buffered log lines are written out at the latest (createLogger). */
const LOG_FLUSH_MS = 1000;

/** The logger's level and redaction (headers with credentials, and secret fields wherever they appear one level down). */
export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]', ...SECRET_LOG_FIELDS.map((f) => `*.${f}`)],
      censor: REDACTED,
    },
  };
}

/**
 * JSON lines on stdout, written in batches of about 4 KB by a background write (never one write per line on the event
 * loop: at one access line per request that was a large share of a request's cost, docs/decisions/0028-page-1-throughput-on-postgresql-where-a-requests-cpu.md),
 * and at the latest every second. pino writes what is left synchronously when the process exits, a crash included;
 * only a SIGKILL can lose the last second's lines.
 */
export function createLogger(config: Config): Logger {
  const buffered = config.logLevel !== 'silent';
  const log = pino(loggerOptions(config.logLevel), buffered ? pino.destination({ dest: 1, sync: false, minLength: 4096 }) : undefined);
  if (buffered) setInterval(() => log.flush(), LOG_FLUSH_MS).unref();
  return log;
}

/** The configured file store (STORAGE_DRIVER). */
export function createStorage(config: Config): Storage {
  return config.storage.driver === 's3' ? s3Storage(config.storage) : localStorage(config.storage.dir);
}

/**
 * S3: one request at boot says whether the bucket answers. A failure is logged, not fatal: the store may be down for a
 * moment, and until it answers uploads get 503 storage_unavailable and analyses fail with the reason.
 */
export async function checkStorage(config: Config, log: Logger): Promise<void> {
  if (config.storage.driver !== 's3') return;
  const err = await checkBucket(config.storage);
  if (err) log.error({ storage: { failure: err.failure, detail: err.detail } }, `storage unavailable at start: ${err.message} (${err.detail})`);
  else log.info({ bucket: config.storage.bucket, endpoint: config.storage.endpoint }, 'storage: S3 bucket answers');
}

export type Bootstrapped = { deps: Deps; database: Database; timings: Record<string, number> };

export async function bootstrap(config: Config, log: Logger, opts: { seed?: boolean; loadDataDir?: Blob } = {}): Promise<Bootstrapped> {
  const timings: Record<string, number> = {};
  let t = Date.now();
  const open = () =>
    openDatabase(
      config.database.kind === 'pglite'
        ? {
            kind: 'pglite',
            dataDir: config.database.dataDir,
            ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}),
            // The embedded database's thread ended on its own: nothing can be served any more, so end the process and let
            // the supervisor (or the operator) start it again on the same data directory.
            onCrash: (err: Error) => {
              log.fatal({ err }, 'the embedded database stopped unexpectedly; exiting');
              process.exit(1);
            },
          }
        : config.database,
    );
  let database = await open();
  timings['open_and_migrate_ms'] = Date.now() - t;
  t = Date.now();
  const lookups = await seedLookupsIfEmpty(database);
  if (lookups.seeded) timings['seed_lookups_ms'] = Date.now() - t;
  let demoSeeded = false;
  if (opts.seed ?? config.seedDemo) {
    t = Date.now();
    const demo = await seedDemoIfEmpty(database);
    demoSeeded = demo.seeded;
    // License keys are stored hashed: the demo's are written once, for the person trying the SDK capture, beside the
    // data (mode 0600), and never again.
    if (demo.seeded && demo.licenseKeys.length > 0) {
      fs.mkdirSync(config.dataDir, { recursive: true });
      fs.writeFileSync(path.join(config.dataDir, 'demo-license-keys.json'), `${JSON.stringify(demo.licenseKeys, null, 2)}\n`, { mode: 0o600 });
    }
    if (demo.seeded) timings['seed_demo_ms'] = Date.now() - t;
  }
  // Embedded: what the first start wrote (PostGIS's spatial_ref_sys, 150k lookup rows, the demo) is vacuumed and analysed
  // now, before the server listens. Left to the maintenance schedule (PGlite runs no autovacuum), the cities table
  // alone would hold the one connection for several seconds at the first quiet moment (docs/decisions/0025-embedded-maintenance-and-the-farmers-mapped-flag.md).
  if (database.maintenance && (lookups.seeded || demoSeeded)) {
    t = Date.now();
    const passes = await database.maintenance.settle();
    timings['maintenance_ms'] = Date.now() - t;
    log.debug({ maintenance: passes.map((p) => ({ table: p.table, action: p.action, ms: p.ms })) }, 'embedded maintenance after seeding');
  }
  // A first start (initdb, CREATE EXTENSION postgis, 150k lookup rows, the demo) grows the embedded database's
  // WebAssembly heap, and that heap never shrinks; PGlite's initdb step also leaves memory behind in its thread. Opening
  // the data directory again in a new thread starts from a clean heap: the first start then sits where a restart does
  // (docs/decisions/0012-embedded-footprint.md). Only for a data directory on disk (an in-memory one would be lost).
  if (database.kind === 'pglite' && config.database.kind === 'pglite' && config.database.dataDir && !opts.loadDataDir && (lookups.seeded || demoSeeded)) {
    t = Date.now();
    await database.close();
    database = await open();
    timings['reopen_ms'] = Date.now() - t;
  }
  await checkStorage(config, log);
  const deps: Deps = {
    config,
    database,
    db: database.db,
    keys: deriveKeys(resolveSecret(config), config.payload.keyVersion),
    storage: createStorage(config),
    log,
  };
  return { deps, database, timings };
}
