// GET /api/health: the database answers a query, and which version and engine are running.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { version } from '../../version.js';

const health = z.object({ status: z.enum(['ok', 'degraded']), database: z.enum(['ok', 'unreachable']), engine: z.enum(['pglite', 'postgres']), version: z.string(), uptime_seconds: z.number() });

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
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
      const body = { status: database === 'ok' ? ('ok' as const) : ('degraded' as const), database, engine: app.deps.database.kind, version, uptime_seconds: Math.round(process.uptime()) };
      return reply.status(database === 'ok' ? 200 : 503).send(body);
    },
  });
};
