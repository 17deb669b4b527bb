// The EUDR readiness reports (issue 29): the tenant's summary, its plots needing action (paged and as csv), a
// due-diligence report of chosen plots, and the provider's readiness of each tenant.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  dueDiligenceQuery,
  dueDiligenceReport,
  envelope,
  eudrPlot,
  eudrPlotsFilter,
  eudrPlotsQuery,
  eudrReadinessSummary,
  listOf,
  tenantReadiness,
} from '@farmland/contracts';
import { gate } from '../../lib/policy.js';
import { eudrReportsPolicy } from './eudr-reports.policy.js';
import * as reports from './eudr-reports.service.js';

const tags = ['eudr-reports'];
const tenant = gate(eudrReportsPolicy, 'tenant');

export const eudrReportsRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;

  app.get('/eudr-reports/summary/', {
    config: tenant,
    schema: {
      tags,
      summary:
        "The tenant's EUDR readiness: plots by plot-risk verdict and by geolocation warning, per operational area and per agent, and verdicts by capture month",
      response: { 200: envelope(eudrReadinessSummary) },
    },
    handler: async (req) => ({ data: await reports.summary(deps, req.ctx) }),
  });

  app.get('/eudr-reports/plots/', {
    config: tenant,
    schema: {
      tags,
      summary: 'Plots needing action (verdict review or high, or a geolocation warning), filtered by area, agent, verdict or warning',
      querystring: eudrPlotsQuery,
      response: { 200: envelope(listOf(eudrPlot)) },
    },
    handler: async (req) => ({ data: await reports.plots(deps, req.ctx, req.query, req.url) }),
  });

  app.get('/eudr-reports/plots/export/', {
    config: tenant,
    schema: { tags, summary: 'The plots needing action as csv (streamed), with the same filters', querystring: eudrPlotsFilter, produces: ['text/csv'] },
    handler: async (req, reply) => {
      const file = await reports.exportPlots(deps, req.ctx, req.query);
      return reply
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        .header('access-control-expose-headers', 'Content-Disposition')
        .header('cache-control', 'no-store')
        .type('text/csv; charset=utf-8')
        .send(file.stream);
    },
  });

  app.get('/eudr-reports/due-diligence/', {
    config: tenant,
    schema: {
      tags,
      summary:
        'A due-diligence report of chosen plots (an operational area, or farm ids; at most 500): summary, the layers read, and per plot its polygon, verdict, reasons, overlaps and warnings',
      querystring: dueDiligenceQuery,
      response: { 200: envelope(dueDiligenceReport) },
    },
    handler: async (req) => ({ data: await reports.dueDiligence(deps, req.ctx, req.query) }),
  });

  app.get('/eudr-reports/tenant-readiness/', {
    config: gate(eudrReportsPolicy, 'provider'),
    schema: {
      tags,
      summary: "Provider staff: each tenant's EUDR readiness (plots screened, by verdict, with warnings, share ready)",
      response: { 200: envelope(tenantReadiness) },
    },
    handler: async (req) => ({ data: await reports.tenantReadiness(deps, req.ctx) }),
  });
};
