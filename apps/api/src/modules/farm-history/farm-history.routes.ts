// GET /farms/{id}/history/: the farm's earlier boundaries, newest first.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, farmBoundary, idParam } from '@farmland/contracts';
import { gate } from '../../lib/policy.js';
import { farmsPolicy } from '../farms/farms.policy.js';
import { farmHistory } from './farm-history.service.js';

export const farmHistoryRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/farms/:id/history/', {
    config: gate(farmsPolicy, 'read'),
    schema: {
      tags: ['farms'],
      summary: "A farm's earlier boundaries (kept when it was re-mapped or cut by Retain), newest first",
      params: idParam,
      response: { 200: envelope(z.array(farmBoundary)) },
    },
    handler: async (req) => ({ data: await farmHistory(app.deps, req.ctx, req.params.id) }),
  });
};
