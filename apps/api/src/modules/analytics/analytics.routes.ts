// GET /analytics/ (counts) and GET /analytics/tenant-mapped-count/ (farms mapped per period): the tenant dashboard.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  agentRanking,
  agentRankingQuery,
  analyticsCounts,
  analyticsQuery,
  countResult,
  envelope,
  licensesCount,
  mappedCount,
  mappedCountQuery,
  mappingData,
  mappingRanking,
  tenantProgress,
  tenantsDashboardCount,
  tenantsStatusCount,
  yearQuery,
} from '@farmland/contracts';
import { gate } from '../../lib/policy.js';
import { analyticsPolicy } from './analytics.policy.js';
import * as analytics from './analytics.service.js';

const tags = ['analytics'];
const readers = gate(analyticsPolicy, 'tenant');
const provider = gate(analyticsPolicy, 'provider');
const providerYear = yearQuery.pick({ year: true });

/** The single counts a tenant admin reads for its own tenant, and provider staff for all tenants or one. */
const counts = [
  ['agents-count', 'agents', 'Field agents'],
  ['farms-count', 'farms', 'Farms'],
  ['operational-areas-count', 'operational_areas', 'Operational areas'],
  ['mapped-farms-count', 'mapped_farms', 'Farmers with at least one mapped farm (the spec\'s "mapped farms")'],
  ['unmapped-farms-count', 'unmapped_farms', 'Farmers without a mapped farm (the spec\'s "unmapped farms")'],
] as const;

export const analyticsRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;

  app.get('/analytics/', {
    config: { ...readers, sessionWithRead: true },
    schema: {
      tags,
      summary: 'Counts: agents, farmers, farms, operational areas, GPS devices, mapped and unmapped farmers (provider staff: tenant_id, or all tenants)',
      querystring: analyticsQuery,
      response: { 200: envelope(analyticsCounts) },
    },
    handler: async (req) => ({ data: await analytics.getCounts(deps, req.ctx, req.query.tenant_id) }),
  });

  app.get('/analytics/tenant-mapped-count/', {
    config: { ...readers, sessionWithRead: true },
    schema: {
      tags,
      summary: 'Farms mapped per year, month or day over the last range_value periods (UTC), with the total and the change against the periods before',
      querystring: mappedCountQuery,
      response: { 200: envelope(mappedCount) },
    },
    handler: async (req) => ({ data: await analytics.getMappedCount(deps, req.ctx, req.query) }),
  });

  app.get('/analytics/agent-ranking/', {
    config: { ...readers, sessionWithRead: true },
    schema: {
      tags,
      summary:
        "Agent Ranking: all the tenant's agents ranked on the server by farms mapped, then area mapped (sqm); the top limit (default 10, at most 100) and total_agents",
      querystring: agentRankingQuery,
      response: { 200: envelope(agentRanking) },
    },
    handler: async (req) => ({ data: await analytics.getAgentRanking(deps, req.ctx, req.query) }),
  });

  for (const [path, name, what] of counts) {
    app.get(`/analytics/${path}/`, {
      config: readers,
      schema: {
        tags,
        summary: `${what}: provider staff all tenants (or tenant_id), a tenant admin its own`,
        querystring: analyticsQuery,
        response: { 200: envelope(countResult) },
      },
      handler: async (req) => ({ data: await analytics.getCount(deps, req.ctx, name, req.query.tenant_id) }),
    });
  }

  app.get('/analytics/mapping-data/', {
    config: { ...readers, sessionWithRead: true },
    schema: {
      tags,
      summary: 'Farms mapped per month of the year (UTC) with their area: provider staff all tenants (or tenant_id), a tenant admin its own',
      querystring: yearQuery,
      response: { 200: envelope(mappingData) },
    },
    handler: async (req) => ({ data: await analytics.getMappingData(deps, req.ctx, req.query) }),
  });

  app.get('/analytics/mapping-ranking/', {
    config: provider,
    schema: {
      tags,
      summary: 'Tenants ranked by farms mapped in the year (then area, then name)',
      querystring: providerYear,
      response: { 200: envelope(mappingRanking) },
    },
    handler: async (req) => ({ data: await analytics.getMappingRanking(deps, req.ctx, req.query.year) }),
  });

  app.get('/analytics/tenants-dashboard-count/', {
    config: provider,
    schema: {
      tags,
      summary: 'Tenants registered per month of the year, and the number of tenants at its end',
      querystring: providerYear,
      response: { 200: envelope(tenantsDashboardCount) },
    },
    handler: async (req) => ({ data: await analytics.getTenantsDashboardCount(deps, req.ctx, req.query.year) }),
  });

  app.get('/analytics/tenants-count/', {
    config: provider,
    schema: { tags, summary: 'Tenants (deleted ones left out)', response: { 200: envelope(countResult) } },
    handler: async (req) => ({ data: await analytics.getTenantsCount(deps, req.ctx) }),
  });

  app.get('/analytics/tenants-status-count/', {
    config: provider,
    schema: { tags, summary: 'Tenants by displayed status: Active, Inactive, Suspended', response: { 200: envelope(tenantsStatusCount) } },
    handler: async (req) => ({ data: await analytics.getTenantsStatusCount(deps, req.ctx) }),
  });

  app.get('/analytics/licenses-count/', {
    config: provider,
    schema: { tags, summary: 'Licenses by derived status (Revoked > Expired > Active) and by type', response: { 200: envelope(licensesCount) } },
    handler: async (req) => ({ data: await analytics.getLicensesCount(deps, req.ctx) }),
  });

  app.get('/analytics/tenant-progress/', {
    config: provider,
    schema: {
      tags,
      summary:
        'Reports (beyond the spec): per tenant and month of the year, farms mapped, area mapped (sqm) and agents active (distinct agents who mapped a farm)',
      querystring: providerYear,
      response: { 200: envelope(tenantProgress) },
    },
    handler: async (req) => ({ data: await analytics.getTenantProgress(deps, req.ctx, req.query.year) }),
  });
};
