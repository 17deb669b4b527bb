// GET /api/config: public deployment settings the console reads at start (the map's basemap style URL). Nothing secret.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { consoleConfig, envelope } from '@farmland/contracts';

export const consoleConfigRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/config', {
    config: { access: 'public' },
    schema: { tags: ['operations'], summary: "The console's deployment settings: the basemap style URL (MAP_STYLE_URL) and the map's tile threshold", security: [], response: { 200: envelope(consoleConfig) } },
    handler: async (_req, reply) => {
      reply.header('cache-control', 'no-cache');
      return { data: { map_style_url: app.deps.config.mapStyleUrl, map_tile_threshold: app.deps.config.mapTileThreshold } };
    },
  });
};
