// POST /base/export/{name}/: downloads a list as {name}.csv with the columns of column_list (docs/requirements.md §7 Base).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { exportBody, exportName } from '@farmland/contracts';
import { gate } from '../../lib/policy.js';
import { exportsPolicy } from './exports.policy.js';
import { exportList } from './exports.service.js';

export const exportsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post('/base/export/:name/', {
    config: gate(exportsPolicy, 'export'),
    schema: {
      tags: ['exports'],
      summary:
        'Export a list as CSV (name: activity-logs, mappings, farmers, agents); column_list chooses the columns, filters narrows the rows as the list does',
      params: z.object({ name: exportName }),
      body: exportBody,
      produces: ['text/csv'],
    },
    handler: async (req, reply) => {
      const { filename, stream } = await exportList(app.deps, req.ctx, req.params.name, req.body);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'no-store')
        .send(stream);
    },
  });
};
