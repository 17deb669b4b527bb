// GET /api/health: the database answers a query, and which version and engine are running; also the longest
// event-loop block of the last minute (the soak and operators watch it).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { version } from '../../version.js';

const health = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.enum(['ok', 'unreachable']),
  engine: z.enum(['pglite', 'postgres']),
  version: z.string(),
  uptime_seconds: z.number(),
  /** The longest delay of the event loop over the last 60 s (10 s windows), in ms. */
  event_loop_max_ms: z.number(),
});

/** Event-loop delay in 10 s windows; the last six windows' maxima make the minute. */
function eventLoopWatch() {
  const histogram = monitorEventLoopDelay({ resolution: 20 });
  histogram.enable();
  const windows: number[] = [];
  const timer = setInterval(() => {
    windows.push(histogram.max / 1e6);
    if (windows.length > 6) windows.shift();
    histogram.reset();
  }, 10_000);
  timer.unref();
  return {
    maxLastMinute: () => Math.round(Math.max(histogram.max / 1e6, ...windows) * 10) / 10,
    stop: () => {
      clearInterval(timer);
      histogram.disable();
    },
  };
}

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  const loop = eventLoopWatch();
  app.addHook('onClose', async () => loop.stop());
  app.get('/health', {
    config: { access: 'public' },
    schema: { tags: ['operations'], summary: 'Liveness and database reachability', security: [], response: { 200: health, 503: health } },
    handler: async (_req, reply) => {
      let database: 'ok' | 'unreachable' = 'ok';
      try {
        await app.deps.database.query('SELECT 1');
      } catch (err) {
        app.log.error({ err }, 'health check: database unreachable');
        database = 'unreachable';
      }
      const body = { status: database === 'ok' ? ('ok' as const) : ('degraded' as const), database, engine: app.deps.database.kind, version, uptime_seconds: Math.round(process.uptime()), event_loop_max_ms: loop.maxLastMinute() };
      return reply.status(database === 'ok' ? 200 : 503).send(body);
    },
  });
};
