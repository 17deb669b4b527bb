// GET /files/{id}?exp&sig: streams a stored file through a signed, expiring URL (see files.service.ts).
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { text, uuid } from '@farmland/contracts';
import { readSignedFile } from './files.service.js';

export const filesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/files/:id', {
    config: { access: 'public' },
    schema: {
      tags: ['files'],
      security: [],
      summary: 'Read a stored file through its signed URL',
      params: z.object({ id: uuid }),
      querystring: z.object({ exp: z.coerce.number().int().min(0).max(99_999_999_999), sig: text().min(10).max(100) }),
    },
    handler: async (req, reply) => {
      const file = await readSignedFile(app.deps, req.params.id, req.query.exp, req.query.sig, req.log);
      // HEAD (Fastify answers it with this handler): the headers only; the file is not read.
      if (req.method === 'HEAD') file.body.destroy();
      return reply
        .header('content-type', file.contentType)
        .header('content-length', String(file.size))
        .header('cache-control', 'private, max-age=3600')
        .header('content-security-policy', "default-src 'none'")
        .send(req.method === 'HEAD' ? Readable.from([]) : file.body);
    },
  });
};
