// GET /internal/outbox/?to=: the newest outbox mail to an address, for `npm run outbox -- <email>` while the embedded
// server owns the database (without SMTP the outbox is the delivery, so an operator or a browser test reads it here).
// Loopback only, with the internal key, like /internal/admin-links/; any other caller gets the 404 of a missing route.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope } from '@farmland/contracts';
import { withScope } from '../../db/client.js';
import { internalKeyMatches } from '../../lib/instance-lock.js';
import { problems } from '../../lib/problems.js';
import { latestMailTo } from './mail.queries.js';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

export const mailRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;
  app.get('/internal/outbox/', {
    config: { access: 'public' },
    schema: {
      hide: true,
      querystring: z.object({ to: z.email().max(254) }),
      response: { 200: envelope(z.object({ to: z.string(), subject: z.string(), body: z.string(), created_at: z.string() }).nullable()) },
    },
    handler: async (req) => {
      const key = req.headers['x-internal-key'];
      if (!LOOPBACK.has(req.socket.remoteAddress ?? '') || !internalKeyMatches(deps.keys.signing, typeof key === 'string' ? key : undefined))
        throw problems.notFound('Route');
      const mail = await withScope(deps.db, { kind: 'system' }, (tx) => latestMailTo(tx, req.query.to.toLowerCase()));
      return { data: mail ? { to: mail.toAddress, subject: mail.subject, body: mail.body, created_at: new Date(mail.createdAt).toISOString() } : null };
    },
  });
};
