// Tenant configuration: GET and PUT /base/tenant-configurations (minimum_farm_size, recognition_threshold), GET /base/tenant-settings/.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { envelope, tenantConfiguration, tenantSelectQuery, tenantSettings, updateTenantConfigurationBody } from '@farmland/contracts';
import { gate } from '../../lib/policy.js';
import { tenantSettingsPolicy } from './tenant-settings.policy.js';
import * as settings from './tenant-settings.service.js';

const tags = ['base'];

export const tenantSettingsRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;

  app.get('/base/tenant-configurations', {
    config: gate(tenantSettingsPolicy, 'read'),
    schema: {
      tags,
      summary: "The tenant's configuration (provider staff name the tenant with tenant_id)",
      querystring: tenantSelectQuery,
      response: { 200: envelope(tenantConfiguration) },
    },
    handler: async (req) => ({ data: await settings.getConfiguration(deps, req.ctx, req.query.tenant_id) }),
  });

  app.put('/base/tenant-configurations', {
    config: gate(tenantSettingsPolicy, 'change'),
    schema: {
      tags,
      summary:
        'Change minimum_farm_size (sqm, ≥ 0), recognition_threshold (0 < t ≤ 1), and the overlap tolerance: overlap_min_area_sqm (m², ≥ 0) and overlap_min_share (0–1 of the smaller farm); a new tolerance re-groups the registry',
      querystring: tenantSelectQuery,
      body: updateTenantConfigurationBody,
      response: { 200: envelope(tenantConfiguration) },
    },
    handler: async (req) => ({
      data: await settings.updateConfiguration(deps, req.ctx, req.body, req.query.tenant_id),
      message: 'Configuration updated successfully',
    }),
  });

  app.get('/base/tenant-settings/', {
    config: gate(tenantSettingsPolicy, 'settings'),
    schema: { tags, summary: 'Tenant, current license and configuration', querystring: tenantSelectQuery, response: { 200: envelope(tenantSettings) } },
    handler: async (req) => ({ data: await settings.getSettings(deps, req.ctx, req.query.tenant_id) }),
  });
};
