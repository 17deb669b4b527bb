// Load shedding, two kinds, one answer (503, Retry-After and the Problem shape `overloaded`, before authentication or any
// database work; LOAD_SHED_*, 0 turns one off):
// - queueing: past LOAD_SHED_MAX_IN_FLIGHT requests being served at once by this app, a new one is shed. On either
//   engine the work of an overload queues for the database (PGlite's one connection in its worker thread; PostgreSQL's
//   pool), not on the event loop, so the bound on requests in flight is what bounds that queue and the wait in it;
// - pressure on the process, with @fastify/under-pressure: event-loop delay, event-loop utilisation, heap or RSS.
// Health, readiness and metrics are never shed (and are not counted in flight): they report on the server.
// Thresholds and how they were chosen: docs/decisions/0069-load-shedding-thresholds.md, docs/decisions/0086-load-shedding-on-queueing.md.
import underPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Config } from '../config.js';
import { shedRequests } from '../lib/metrics.js';
import { Problem } from '../lib/problems.js';
import { UNSHED_ROUTES } from './openapi/index.js';

/** under-pressure's sampling period (its default). */
const SAMPLE_INTERVAL_MS = 1000;

/** A route template without its trailing slash: /api/health/ and /api/health are one route. */
const routeOf = (url: string | undefined) => (url ?? '').replace(/\/$/, '');

export async function registerLoadShedding(app: FastifyInstance, config: Config): Promise<void> {
  const t = config.loadShedding;
  // The body is made once: a Problem is an Error, and capturing a stack for each of thousands of shed requests a second
  // showed in a CPU profile of the overload test.
  const problem = new Problem(503, 'overloaded', 'The server is busy right now and did not start this request. Try again after the time in Retry-After.');
  const body = JSON.stringify({ message: problem.message, code: problem.code });
  const retryAfter = String(t.retryAfterSeconds);
  /** Sets the shed answer's status and headers, and returns its body (the caller sends it). */
  const shed = (reply: FastifyReply, reason: string): string => {
    shedRequests.inc({ reason });
    reply.status(503).header('retry-after', retryAfter).header('content-type', 'application/json; charset=utf-8');
    return body;
  };

  // Requests in flight in this app (not health, readiness, metrics). Counted from onRequest to the response's 'close',
  // which fires once for every response, sent or aborted. A shed request is never counted: it costs no database work.
  // Registered before under-pressure's hook, so a request over the bound is shed here and counted once.
  if (t.maxInFlight > 0) {
    let inFlight = 0;
    const done = () => void (inFlight = Math.max(0, inFlight - 1));
    app.addHook('onRequest', async (req, reply) => {
      if (UNSHED_ROUTES.has(routeOf(req.routeOptions.url))) return;
      if (inFlight >= t.maxInFlight) return reply.send(shed(reply, 'inFlight'));
      inFlight++;
      reply.raw.once('close', done);
    });
  }

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
      if (!armed || UNSHED_ROUTES.has(routeOf(req.routeOptions.url))) return undefined; // served as usual
      // under-pressure sends what the handler returns (its types say void; a returned value is the documented answer).
      return shed(reply, type) as unknown as void;
    },
  });
}
