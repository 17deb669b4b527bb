// Licenses (docs/requirements.md §7 "Base"): GET /base/licenses/, PUT /base/licenses/{id}/revoke/, POST /base/licenses/{id}/reissue/,
// and POST /base/licenses/{id}/rotate-key/ (issue 33: a new key shown once, the old one revoked).
// Provider staff; a tenant admin reads its own organisation's licenses (the dashboard's license card) and nothing more.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, idParam, license, licensesQuery, listOf, rotatedLicense } from '@farmland/contracts';
import { gate } from '../../lib/policy.js';
import { licensesPolicy } from './licenses.policy.js';
import * as licenses from './licenses.service.js';

const tags = ['licenses'];
const provider = gate(licensesPolicy, 'manage');

export const licensesRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;

  app.get('/base/licenses/', {
    config: gate(licensesPolicy, 'list'),
    schema: {
      tags,
      summary:
        'Licenses (latest issued first) with the derived status; search (tenant name or key prefix), is_revoked, is_expired, type, issued_date, status, tenant_id',
      querystring: licensesQuery,
      response: { 200: envelope(listOf(license)) },
    },
    handler: async (req) => ({ data: await licenses.listLicenses(deps, req.ctx, req.query, req.url) }),
  });

  app.put('/base/licenses/:id/revoke/', {
    config: provider,
    schema: {
      tags,
      summary: "Revoke a license: the tenant's users (or its SDK key) are refused with license_revoked from their next call",
      params: idParam,
      body: z.object({}).nullish(),
      response: { 200: envelope(license) },
    },
    handler: async (req) => ({ data: await licenses.revokeLicense(deps, req.ctx, req.params.id), message: 'License revoked successfully' }),
  });

  app.post('/base/licenses/:id/reissue/', {
    config: provider,
    schema: {
      tags,
      summary:
        'Re-issue an SDK license: one more year from the later of its expiry and today, and no longer revoked (a Platform license: 409 license_not_reissuable; a superseded one: 409 license_superseded)',
      params: idParam,
      body: z.object({}).nullish(),
      response: { 200: envelope(license) },
    },
    handler: async (req) => ({ data: await licenses.reissueLicense(deps, req.ctx, req.params.id), message: 'License reissued successfully' }),
  });

  app.post('/base/licenses/:id/rotate-key/', {
    config: provider,
    schema: {
      tags,
      summary:
        "Rotate the key of a tenant's current license: a copy with a new key (same type, dates, price) becomes current and the old one is revoked; the new key is in the answer (license_key), this once. A revoked license: 409 license_not_rotatable; a superseded one: 409 license_superseded",
      params: idParam,
      body: z.object({}).nullish(),
      response: { 200: envelope(rotatedLicense) },
    },
    handler: async (req) => ({ data: await licenses.rotateLicenseKey(deps, req.ctx, req.params.id), message: 'License key rotated successfully' }),
  });
};
