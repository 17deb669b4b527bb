// GET /analytics/ (counts) and GET /analytics/tenant-mapped-count/ (farms mapped per period): the tenant dashboard.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { analyticsCounts, analyticsQuery, envelope, mappedCount, mappedCountQuery } from '@farmland/contracts';
import * as analytics from './analytics.service.js';

const tags = ['analytics'];
const readers = { access: ['super_admin', 'tenant_admin'] } as const;

export const analyticsRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;

  app.get('/analytics/', {
    config: readers,
    schema: { tags, summary: 'Counts: agents, farmers, farms, operational areas, GPS devices, mapped and unmapped farmers (provider staff: tenant_id, or all tenants)', querystring: analyticsQuery, response: { 200: envelope(analyticsCounts) } },
    handler: async (req) => ({ data: await analytics.getCounts(deps, req.ctx, req.query.tenant_id) }),
  });

  app.get('/analytics/tenant-mapped-count/', {
    config: readers,
    schema: {
      tags,
      summary: 'Farms mapped per year, month or day over the last range_value periods (UTC), with the total and the change against the periods before',
      querystring: mappedCountQuery,
      response: { 200: envelope(mappedCount) },
    },
    handler: async (req) => ({ data: await analytics.getMappedCount(deps, req.ctx, req.query) }),
  });
};
