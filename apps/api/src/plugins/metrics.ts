// GET /api/metrics in the Prometheus text format, and the hooks that feed the request metrics (lib/metrics.ts).
// Access (docs/decisions/0068-metrics-access.md): with METRICS_TOKEN set, `Authorization: Bearer <token>` is required; without
// it, only a direct call from this machine is answered (a loopback peer, no X-Forwarded-For), so a proxy on the same host
// does not expose it. Everyone else gets 404, as if the route did not exist. METRICS=off records nothing (no hook, no
// sampler) and answers 404 to everyone: the switch the hooks' cost is measured with (bench:lists, with and without).
import crypto from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import type { Deps } from '../context.js';
import { scopedRows } from '../db/client.js';
import { addSampler, analysisQueue, dbPool, httpDuration, renderMetrics, requestEnded, requestStarted } from '../lib/metrics.js';
import { problems } from '../lib/problems.js';

/** 127.0.0.0/8, ::1, and 127.x mapped into IPv6. */
const isLoopback = (ip: string): boolean => ip === '::1' || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(ip);

function sameSecret(given: string, expected: string): boolean {
  const a = crypto.createHash('sha256').update(given).digest();
  const b = crypto.createHash('sha256').update(expected).digest();
  return crypto.timingSafeEqual(a, b);
}

export function metricsAllowed(req: FastifyRequest, token: string | null): boolean {
  if (token) {
    const auth = req.headers.authorization;
    return typeof auth === 'string' && auth.startsWith('Bearer ') && sameSecret(auth.slice(7), token);
  }
  return isLoopback(req.socket.remoteAddress ?? '') && req.headers['x-forwarded-for'] === undefined && req.headers['forwarded'] === undefined;
}

export function registerMetrics(app: FastifyInstance, deps: Deps): void {
  // The route stays registered when off, so that the OpenAPI document does not depend on the configuration.
  if (deps.config.metrics) recordRequests(app, deps);
  app.get('/api/metrics', {
    config: { access: 'public' },
    schema: {
      tags: ['operations'],
      summary: 'Prometheus metrics (text format): with METRICS_TOKEN, a bearer token of that value; without it, direct calls from this machine only',
      security: [],
    },
    handler: async (req, reply) => {
      if (!deps.config.metrics || !metricsAllowed(req, deps.config.metricsToken)) throw problems.routeNotFound();
      const { contentType, body } = await renderMetrics();
      return reply.header('content-type', contentType).header('cache-control', 'no-store').send(body);
    },
  });
}

/** The request hooks and the scrape-time samplers (pool, queue). */
function recordRequests(app: FastifyInstance, deps: Deps): void {
  app.addHook('onRequest', async (req) => {
    requestStarted();
    // 'close' fires once for every response, sent or aborted.
    req.raw.once('close', requestEnded);
  });
  app.addHook('onResponse', async (req, reply) => {
    // The route template, never the path asked for (ids, tokens in the path); an unmatched path is one label.
    const route = req.routeOptions.url ?? 'unmatched';
    httpDuration.observe(
      { method: req.method, route: route.startsWith('/api') ? route : route === '/*' ? 'console' : 'unmatched', status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });
  const removeSampler = addSampler(async () => {
    const pool = deps.database.poolStats?.();
    if (pool) {
      dbPool.set({ state: 'total' }, pool.total);
      dbPool.set({ state: 'idle' }, pool.idle);
      dbPool.set({ state: 'waiting' }, pool.waiting);
    }
    const rows = await scopedRows<{ status: string; n: number }>(
      deps.db,
      { kind: 'system' },
      sql`SELECT status, count(*)::int AS n FROM custom_analyses WHERE status IN ('queued', 'processing') GROUP BY status`,
    ).catch(() => null);
    if (rows) {
      analysisQueue.set({ state: 'queued' }, rows.find((r) => r.status === 'queued')?.n ?? 0);
      analysisQueue.set({ state: 'processing' }, rows.find((r) => r.status === 'processing')?.n ?? 0);
    }
  });
  app.addHook('onClose', async () => void removeSampler());
}
