// Licenses (spec §7 "Base"): GET /base/licenses/, PUT /base/licenses/{id}/revoke/, POST /base/licenses/{id}/reissue/.
// Provider staff only.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, idParam, license, licensesQuery, listOf } from '@farmland/contracts';
import * as licenses from './licenses.service.js';

const tags = ['licenses'];
const provider = { access: ['super_admin'] } as const;

export const licensesRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;

  app.get('/base/licenses/', {
    config: provider,
    schema: {
      tags,
      summary: 'Licenses (latest issued first) with the derived status; search (tenant name or key prefix), is_revoked, is_expired, type, issued_date, status, tenant_id',
      querystring: licensesQuery,
      response: { 200: envelope(listOf(license)) },
    },
    handler: async (req) => ({ data: await licenses.listLicenses(deps, req.ctx, req.query, req.url) }),
  });

  app.put('/base/licenses/:id/revoke/', {
    config: provider,
    schema: { tags, summary: "Revoke a license: the tenant's users (or its SDK key) are refused with license_revoked from their next call", params: idParam, body: z.object({}).nullish(), response: { 200: envelope(license) } },
    handler: async (req) => ({ data: await licenses.revokeLicense(deps, req.ctx, req.params.id), message: 'License revoked successfully' }),
  });

  app.post('/base/licenses/:id/reissue/', {
    config: provider,
    schema: {
      tags,
      summary: 'Re-issue an SDK license: one more year from the later of its expiry and today, and no longer revoked (a Platform license: 409 license_not_reissuable)',
      params: idParam,
      body: z.object({}).nullish(),
      response: { 200: envelope(license) },
    },
    handler: async (req) => ({ data: await licenses.reissueLicense(deps, req.ctx, req.params.id), message: 'License reissued successfully' }),
  });
};
