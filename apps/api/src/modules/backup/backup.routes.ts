// POST /api/internal/backup/: the embedded database's archive, for `npm run db:backup` while the server owns the data
// directory (loopback only, with the internal key, like the admin-link route; anything else is a 404).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { isInternalCaller } from '../../lib/instance-lock.js';
import { problems } from '../../lib/problems.js';

export const backupRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post('/internal/backup/', {
    config: { access: 'public' },
    schema: { hide: true },
    handler: async (req, reply) => {
      const deps = app.deps;
      if (!isInternalCaller(req.socket.remoteAddress, deps.keys.signing, req.headers['x-internal-key'])) throw problems.notFound('Route');
      if (!deps.database.dumpDataDir)
        throw problems.badRequest('not_embedded', 'This server runs on PostgreSQL: back it up with pg_dump (npm run db:backup does).');
      const archive = Buffer.from(await (await deps.database.dumpDataDir()).arrayBuffer());
      return reply.header('content-type', 'application/gzip').header('cache-control', 'no-store').send(archive);
    },
  });
};
