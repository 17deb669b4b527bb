// The process configuration: every environment variable is parsed here, once, by zod; a bad value stops the boot.
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { S3Config } from './lib/storage-s3.js';

const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');

/** An empty variable (VAR= in a .env file) counts as unset. */
const blank = (v: unknown) => (v === '' ? undefined : v);

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  DATABASE_ADMIN_URL: z.string().optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /** API processes sharing the port (node:cluster); 'auto': one per CPU. PostgreSQL only (docs/decisions/0028-page-1-throughput-on-postgresql-where-a-requests-cpu.md). */
  API_PROCESSES: z.preprocess(blank, z.union([z.literal('auto'), z.coerce.number().int().min(1).max(64)]).default(1)),
  APP_SECRET: z.string().min(32).optional(),
  JWT_ISSUER: z.string().default('farmland-platform'),
  JWT_AUDIENCE: z.string().default('farmland-console'),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(30).max(900).default(900),
  REFRESH_TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(300)
    .default(60 * 60 * 24 * 14),
  /** A session whose console has not refreshed its token for this long ends (0: never). */
  SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .min(0)
    .max(60 * 24 * 14)
    .default(30),
  /**
   * Device sessions (the field app's sign-in with device: true; agents only; docs/decisions/0062-field-app-device-session.md):
   * the session's whole life from sign-in, and how long the device may stay offline (no refresh) before it ends.
   */
  DEVICE_SESSION_TTL_DAYS: z.coerce.number().int().min(1).max(90).default(30),
  DEVICE_SESSION_IDLE_DAYS: z.coerce.number().int().min(1).max(90).default(14),
  /**
   * The refresh token's reuse interval: a token presented again this soon after it was rotated gets the same successor
   * instead of ending the session (an aborted page load never stored the new cookie). 0: any reuse ends the session.
   */
  REFRESH_REUSE_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(120).default(30),
  COOKIE_SECURE: bool.optional(),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024),
  UPLOAD_LIMIT_BYTES: z.coerce.number().int().min(1024).default(3_145_728),
  FARMS_GEOJSON_CAP: z.coerce.number().int().min(1).max(100_000).default(20_000),
  IMAGE_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(2 * 1024 * 1024),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Farmland Platform <no-reply@farmland.local>'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SEED_DEMO: bool.optional(),
  WEB_DIST_DIR: z.string().optional(),
  TRUST_PROXY: bool.default(false),
  ANALYSIS_WORKERS: z.enum(['on', 'off', 'true', 'false', '1', '0']).default('on'),
  /** Analyses one tenant may have waiting to start; the next upload gets 429 (docs/decisions/0017-fair-queues.md). */
  ANALYSIS_MAX_QUEUED_PER_TENANT: z.coerce.number().int().min(1).max(10_000).default(20),
  /** Seconds without a heartbeat (one every 5 s) after which a run is taken for dead and requeued by the sweep. */
  ANALYSIS_STALE_RUN_SECONDS: z.coerce.number().int().min(15).max(3600).default(45),
  /**
   * Most data rows of one analysis (a csv; the formats read whole keep 100,000); default by engine: 1,000,000 on
   * PostgreSQL, 100,000 embedded (docs/decisions/0022-million-row-analyses.md).
   */
  ANALYSIS_MAX_ROWS: z.preprocess(blank, z.coerce.number().int().min(1).max(10_000_000).optional()),
  MAP_STYLE_URL: z.preprocess((v) => (v === '' ? undefined : v), z.url().optional()),
  MAP_TILE_THRESHOLD: z.coerce.number().int().min(0).default(5000),
  PAYLOAD_ENCRYPTION: z.enum(['required', 'optional', 'off']).default('optional'),
  PAYLOAD_KEY_VERSION: z.coerce.number().int().min(1).max(1_000_000).default(1),
  STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
  S3_BUCKET: z.preprocess(
    blank,
    z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'an S3 bucket name (3-63 lowercase letters, digits, dots, hyphens)')
      .optional(),
  ),
  S3_ENDPOINT: z.preprocess(blank, z.url({ protocol: /^https?$/, error: 'an http(s) URL, e.g. http://minio:9000' }).optional()),
  S3_REGION: z.preprocess(blank, z.string().min(1).default('us-east-1')),
  S3_ACCESS_KEY_ID: z.preprocess(blank, z.string().min(1).optional()),
  S3_SECRET_ACCESS_KEY: z.preprocess(blank, z.string().min(1).optional()),
  S3_FORCE_PATH_STYLE: bool.default(false),
  MEMORY_TRIM_INTERVAL_S: z.coerce.number().int().min(0).max(86_400).default(30),
  /** Embedded only: quiet milliseconds before a VACUUM/ANALYZE pass of one table (db/pglite-maintenance.ts); 0: never. */
  EMBEDDED_MAINTENANCE_IDLE_MS: z.coerce
    .number()
    .int()
    .refine((v) => v === 0 || (v >= 100 && v <= 3_600_000), '0 (off), or 100 to 3600000 milliseconds')
    .default(2000),
  /** GET /api/metrics needs `Authorization: Bearer <METRICS_TOKEN>`; unset: only direct calls from this machine (docs/decisions/0068-metrics-access.md). */
  METRICS_TOKEN: z.preprocess(blank, z.string().min(16, 'at least 16 characters').optional()),
  /** off: no request metrics are recorded and /api/metrics answers 404 (the switch the overhead is measured with). */
  METRICS: z.enum(['on', 'off', 'true', 'false', '1', '0']).default('on'),
  /** `npm run worker` only: serve /api/health, /api/health/ready (and /api/ready) and /api/metrics on this port; unset: no port. */
  WORKER_HEALTH_PORT: z.preprocess(blank, z.coerce.number().int().min(0).max(65535).optional()),
  /** Load shedding (@fastify/under-pressure; docs/decisions/0069-load-shedding-thresholds.md): 0 turns a threshold off. */
  /**
   * Requests being served at once by one API process (health, readiness and metrics not counted); past it a new one is
   * shed. This bounds the queue an overload builds for the database (docs/decisions/0086-load-shedding-on-queueing.md).
   */
  LOAD_SHED_MAX_IN_FLIGHT: z.coerce.number().int().min(0).default(32),
  LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: z.coerce.number().min(0).default(1000),
  LOAD_SHED_MAX_EVENT_LOOP_UTILIZATION: z.coerce.number().min(0).max(1).default(0),
  LOAD_SHED_MAX_HEAP_USED_BYTES: z.coerce.number().int().min(0).default(0),
  LOAD_SHED_MAX_RSS_BYTES: z.coerce.number().int().min(0).default(0),
  /** Seconds a shed request is told to wait (Retry-After). */
  LOAD_SHED_RETRY_AFTER_SECONDS: z.coerce.number().int().min(1).max(3600).default(10),
  /** OpenTelemetry traces go to this OTLP/HTTP endpoint; unset: tracing is not loaded at all (lib/tracing.ts). */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.preprocess(blank, z.url().optional()),
  /**
   * Webhooks (docs/decisions/0075-webhooks.md): hosts (exact names) and addresses or CIDRs (127.0.0.1, 10.0.0.0/8, ::1)
   * that a webhook URL may reach although they are loopback, private or link-local; comma-separated. Such a URL may
   * also be plain http. Unset: every such address is refused.
   */
  WEBHOOK_ALLOWED_HOSTS: z.preprocess(blank, z.string().optional()),
  /** Multiplies the retry schedule (5 s, 5 min, 30 min, 2 h, 5 h, 8 h, 8 h); tests use a tiny factor. */
  WEBHOOK_RETRY_SCALE: z.coerce.number().positive().max(100).default(1),
  /** Whole time a receiver has to answer, and the most of its answer that is read. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  WEBHOOK_MAX_RESPONSE_BYTES: z.coerce.number().int().min(0).max(1_048_576).default(65_536),
  /** Finished deliveries (delivered, or failed with no retry left) older than this many days are pruned, with their attempts. */
  WEBHOOK_DELIVERY_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
});

export type Config = {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  publicUrl: string;
  dataDir: string;
  database: { kind: 'pglite'; dataDir: string | null } | { kind: 'postgres'; url: string; adminUrl: string; poolSize: number };
  secret: string;
  jwt: {
    issuer: string;
    audience: string;
    accessTtl: number;
    refreshTtl: number;
    idleSeconds: number;
    reuseIntervalSeconds: number;
    deviceTtl: number;
    deviceIdleSeconds: number;
  };
  cookieSecure: boolean;
  bodyLimit: number;
  uploadLimit: number;
  /** At most this many farms in one GeoJSON answer (GET /farms/?all=true); beyond it the answer says how to narrow it. */
  farmsGeoJsonCap: number;
  imageLimit: number;
  mail: { smtpUrl: string | null; from: string };
  logLevel: string;
  seedDemo: boolean;
  webDistDir: string;
  trustProxy: boolean;
  /** How often free C-heap pages go back to the OS (lib/malloc-trim.ts); 0: never. */
  memoryTrimIntervalMs: number;
  /** Embedded database: how long it must be idle before a maintenance pass (VACUUM/ANALYZE of one table); 0: never. */
  embeddedMaintenanceIdleMs: number;
  /** Whether the API process works analysis jobs itself (off: leave them to `npm run worker`). */
  analysisWorkers: boolean;
  /** API processes serving the port (server.ts forks them with node:cluster when above 1; PostgreSQL only). */
  apiProcesses: number;
  /** Analyses a tenant may have queued (not yet started); beyond it POST /custom-analysis/ answers 429. */
  analysisMaxQueuedPerTenant: number;
  /** A run whose heartbeat is older than this is taken for dead (its process ended): requeued, or failed at the second crash. */
  analysisStaleRunSeconds: number;
  /** Most data rows of one analysis; beyond it the upload answers 413 too_many_rows naming the limit. */
  analysisMaxRows: number;
  /** The console's basemap (a MapLibre style URL); null: the bundled offline style. */
  mapStyleUrl: string | null;
  /** Farm count above which the Farmlands map reads vector tiles instead of GeoJSON. */
  mapTileThreshold: number;
  /**
   * Encrypted request and response bodies (JWE, lib/payload-crypto.ts): required refuses plain JSON bodies and calls
   * without a client key; optional takes both; off ignores both. keyVersion picks the server's key pair (rotation).
   */
  payload: { mode: 'required' | 'optional' | 'off'; keyVersion: number };
  /** Where uploaded and staged files live: the data directory (one machine), or an S3-compatible bucket (several). */
  storage: StorageConfig;
  /** null: /api/metrics answers direct calls from this machine only. */
  metricsToken: string | null;
  /** false (METRICS=off): no request metrics, no /api/metrics. */
  metrics: boolean;
  /** The worker's own health and metrics port (WORKER_HEALTH_PORT); null: none. 0: any free port. */
  workerHealthPort: number | null;
  /** @fastify/under-pressure thresholds (0: off) and the Retry-After of a shed request. */
  loadShedding: {
    maxInFlight: number;
    maxEventLoopDelayMs: number;
    maxEventLoopUtilization: number;
    maxHeapUsedBytes: number;
    maxRssBytes: number;
    retryAfterSeconds: number;
  };
  /** OTLP endpoint for traces; null: tracing off (not loaded). */
  otlpEndpoint: string | null;
  /** Webhook delivery: the operator's allow-list of private hosts/CIDRs, the retry schedule's factor, the answer's limits. */
  webhooks: { allowedHosts: string[]; retryScale: number; timeoutMs: number; maxResponseBytes: number; retentionDays: number };
};

export type StorageConfig = { driver: 'local'; dir: string } | S3Config;

/** The analysis row cap per engine when ANALYSIS_MAX_ROWS is not set: what the measurements support (docs/decisions/0034-targets-measured-at-rest-and-the-embedded-row-cap.md). */
export const DEFAULT_MAX_ROWS = { postgres: 1_000_000, pglite: 1_000_000 } as const;

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new ConfigError(`Invalid configuration:\n${lines}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const apiProcesses = e.API_PROCESSES === 'auto' ? os.availableParallelism() : e.API_PROCESSES;
  if (apiProcesses > 1 && !e.DATABASE_URL) {
    throw new ConfigError(
      `Invalid configuration:\n  API_PROCESSES: ${e.API_PROCESSES} needs PostgreSQL (DATABASE_URL); the embedded database runs in one process, so leave it at 1`,
    );
  }
  if (e.NODE_ENV === 'production' && !e.APP_SECRET) {
    throw new ConfigError('Invalid configuration:\n  APP_SECRET: required in production (at least 32 characters)');
  }
  let storage: StorageConfig = { driver: 'local', dir: path.join(dataDir, 'files') };
  if (e.STORAGE_DRIVER === 's3') {
    const missing = [
      ...(e.S3_BUCKET ? [] : ['  S3_BUCKET: required when STORAGE_DRIVER=s3']),
      ...(!e.S3_ACCESS_KEY_ID !== !e.S3_SECRET_ACCESS_KEY
        ? [`  ${e.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID'}: set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither`]
        : []),
    ];
    if (missing.length > 0) throw new ConfigError(`Invalid configuration:\n${missing.join('\n')}`);
    storage = {
      driver: 's3',
      bucket: e.S3_BUCKET!,
      endpoint: e.S3_ENDPOINT ?? null,
      region: e.S3_REGION,
      credentials: e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY } : null,
      forcePathStyle: e.S3_FORCE_PATH_STYLE,
    };
  }
  const config: Config = {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    dataDir,
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL, adminUrl: e.DATABASE_ADMIN_URL ?? e.DATABASE_URL, poolSize: e.DATABASE_POOL_SIZE }
      : { kind: 'pglite', dataDir: path.join(dataDir, 'pglite') },
    // Development falls back to a secret kept in the data directory (see db/secret.ts); tests pass their own.
    secret: e.APP_SECRET ?? '',
    jwt: {
      issuer: e.JWT_ISSUER,
      audience: e.JWT_AUDIENCE,
      accessTtl: e.ACCESS_TOKEN_TTL_SECONDS,
      refreshTtl: e.REFRESH_TOKEN_TTL_SECONDS,
      idleSeconds: e.SESSION_IDLE_MINUTES * 60,
      reuseIntervalSeconds: e.REFRESH_REUSE_INTERVAL_SECONDS,
      deviceTtl: e.DEVICE_SESSION_TTL_DAYS * 86_400,
      deviceIdleSeconds: e.DEVICE_SESSION_IDLE_DAYS * 86_400,
    },
    cookieSecure: e.COOKIE_SECURE ?? true,
    bodyLimit: e.BODY_LIMIT_BYTES,
    uploadLimit: e.UPLOAD_LIMIT_BYTES,
    farmsGeoJsonCap: e.FARMS_GEOJSON_CAP,
    imageLimit: e.IMAGE_LIMIT_BYTES,
    mail: { smtpUrl: e.SMTP_URL ?? null, from: e.MAIL_FROM },
    logLevel: e.LOG_LEVEL,
    // Demo data by default only on the embedded database; a PostgreSQL deployment starts empty unless asked.
    seedDemo: e.SEED_DEMO ?? !e.DATABASE_URL,
    webDistDir: path.resolve(e.WEB_DIST_DIR ?? path.join(import.meta.dirname, '../../web/dist')),
    trustProxy: e.TRUST_PROXY,
    memoryTrimIntervalMs: e.MEMORY_TRIM_INTERVAL_S * 1000,
    embeddedMaintenanceIdleMs: e.EMBEDDED_MAINTENANCE_IDLE_MS,
    analysisWorkers: ['on', 'true', '1'].includes(e.ANALYSIS_WORKERS),
    apiProcesses,
    analysisMaxQueuedPerTenant: e.ANALYSIS_MAX_QUEUED_PER_TENANT,
    analysisStaleRunSeconds: e.ANALYSIS_STALE_RUN_SECONDS,
    analysisMaxRows: e.ANALYSIS_MAX_ROWS ?? (e.DATABASE_URL ? DEFAULT_MAX_ROWS.postgres : DEFAULT_MAX_ROWS.pglite),
    mapStyleUrl: e.MAP_STYLE_URL ?? null,
    mapTileThreshold: e.MAP_TILE_THRESHOLD,
    payload: { mode: e.PAYLOAD_ENCRYPTION, keyVersion: e.PAYLOAD_KEY_VERSION },
    storage,
    metricsToken: e.METRICS_TOKEN ?? null,
    metrics: ['on', 'true', '1'].includes(e.METRICS),
    workerHealthPort: e.WORKER_HEALTH_PORT ?? null,
    loadShedding: {
      maxInFlight: e.LOAD_SHED_MAX_IN_FLIGHT,
      maxEventLoopDelayMs: e.LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS,
      maxEventLoopUtilization: e.LOAD_SHED_MAX_EVENT_LOOP_UTILIZATION,
      maxHeapUsedBytes: e.LOAD_SHED_MAX_HEAP_USED_BYTES,
      maxRssBytes: e.LOAD_SHED_MAX_RSS_BYTES,
      retryAfterSeconds: e.LOAD_SHED_RETRY_AFTER_SECONDS,
    },
    otlpEndpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT ?? null,
    webhooks: {
      allowedHosts: (e.WEBHOOK_ALLOWED_HOSTS ?? '')
        .split(',')
        .map((h) => h.trim())
        .filter(Boolean),
      retryScale: e.WEBHOOK_RETRY_SCALE,
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      maxResponseBytes: e.WEBHOOK_MAX_RESPONSE_BYTES,
      retentionDays: e.WEBHOOK_DELIVERY_RETENTION_DAYS,
    },
  };
  return { ...config, ...overrides };
}
