// Load shedding with @fastify/under-pressure: past a configured event-loop delay, event-loop utilisation, heap or RSS
// threshold (LOAD_SHED_*; 0 turns one off), a request is answered at once with 503, Retry-After and the Problem shape,
// before authentication or any database work. Health, readiness and metrics are never shed: they report on the server.
// Thresholds and how they were chosen: docs/decisions/0069-load-shedding-thresholds.md.
import underPressure from '@fastify/under-pressure';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { shedRequests } from '../lib/metrics.js';
import { Problem } from '../lib/problems.js';
import { UNSHED_ROUTES } from './openapi/index.js';

/** under-pressure's sampling period (its default). */
const SAMPLE_INTERVAL_MS = 1000;

export async function registerLoadShedding(app: FastifyInstance, config: Config): Promise<void> {
  const t = config.loadShedding;
  // Building the app (compiling every route's schemas) blocks the event loop for a second or more, and under-pressure's
  // first samples would count it as load. Shedding is armed two samples after the app is ready, when the samples cover
  // only the running server.
  let armed = false;
  app.addHook('onReady', async () => {
    setTimeout(() => (armed = true), 2 * SAMPLE_INTERVAL_MS).unref();
  });
  await app.register(underPressure, {
    sampleInterval: SAMPLE_INTERVAL_MS,
    maxEventLoopDelay: t.maxEventLoopDelayMs,
    maxEventLoopUtilization: t.maxEventLoopUtilization,
    maxHeapUsedBytes: t.maxHeapUsedBytes,
    maxRssBytes: t.maxRssBytes,
    retryAfter: t.retryAfterSeconds,
    pressureHandler: (req, reply, type) => {
      const url = (req.routeOptions.url ?? '').replace(/\/$/, '');
      if (!armed || UNSHED_ROUTES.has(url)) return undefined; // served as usual
      shedRequests.inc({ reason: type });
      const p = new Problem(503, 'overloaded', 'The server is busy right now and did not start this request. Try again after the time in Retry-After.');
      reply.status(503).header('retry-after', String(t.retryAfterSeconds)).header('content-type', 'application/json; charset=utf-8');
      // under-pressure sends what the handler returns (its types say void; a returned value is the documented answer).
      return JSON.stringify({ message: p.message, code: p.code }) as unknown as void;
    },
  });
}
