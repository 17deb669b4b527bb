// Prometheus metrics for the process (prom-client), one registry per process: the HTTP request histogram and in-flight
// gauge (plugins/metrics.ts), analysis runs (modules/analyses/analyses.job.ts), the database pool and the queue (read when scraped),
// and prom-client's default process metrics (CPU, RSS, heap, event-loop lag, GC). Labels never carry a tenant, a user,
// an id or a secret: a route is its template (/api/farms/:id/), never the path asked for.
import client from 'prom-client';

export const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });

export const httpDuration = new client.Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP requests by method, route template and status code',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [registry],
});

let inFlight = 0;
export const requestStarted = () => void inFlight++;
export const requestEnded = () => void (inFlight = Math.max(0, inFlight - 1));
new client.Gauge({
  name: 'http_requests_in_flight',
  help: 'HTTP requests being served now',
  registers: [registry],
  collect() {
    this.set(inFlight);
  },
});

export const analysisRuns = new client.Histogram({
  name: 'analysis_run_duration_seconds',
  help: 'Custom-analysis runs by outcome (completed, failed), from claim to the end of the run',
  labelNames: ['outcome'] as const,
  buckets: [0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600],
  registers: [registry],
});

export const analysisRowsPerSecond = new client.Histogram({
  name: 'analysis_rows_per_second',
  help: 'Rows analysed per second by completed custom-analysis runs',
  buckets: [10, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 25000, 50000],
  registers: [registry],
});

export const shedRequests = new client.Counter({
  name: 'http_requests_shed_total',
  help: 'Requests answered 503 by load shedding, by the pressure that triggered it',
  labelNames: ['reason'] as const,
  registers: [registry],
});

/** Read when scraped: each source registers a function that returns the current values (or null when not applicable). */
type Sampler = () => Promise<void> | void;
const samplers = new Set<Sampler>();
export function addSampler(fn: Sampler): () => void {
  samplers.add(fn);
  return () => samplers.delete(fn);
}

export const dbPool = new client.Gauge({
  name: 'db_pool_connections',
  help: 'Database pool connections by state (total, idle, waiting = queued requests for a connection); PostgreSQL only',
  labelNames: ['state'] as const,
  registers: [registry],
});

export const analysisQueue = new client.Gauge({
  name: 'analysis_queue_depth',
  help: 'Custom analyses by state: queued (waiting to start) and processing, over all tenants',
  labelNames: ['state'] as const,
  registers: [registry],
});

/** The Prometheus text of every metric, after the samplers ran. */
export async function renderMetrics(): Promise<{ contentType: string; body: string }> {
  await Promise.all([...samplers].map(async (fn) => fn()));
  return { contentType: registry.contentType, body: await registry.metrics() };
}

export const webhookDeliveries = new client.Counter({
  name: 'webhook_deliveries_total',
  help: 'Webhook delivery attempts by outcome: success (a 2xx answer), failure (another answer, a timeout, a network error), refused (the address is not allowed)',
  labelNames: ['outcome'] as const,
  registers: [registry],
});
