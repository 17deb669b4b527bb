// Tenants (docs/requirements.md §7 "Base"): GET and POST /base/tenants/, GET and PUT /base/tenants/{id}/, POST /base/tenants/delete/
// (uuids, all or nothing) and PUT /base/tenants/{id}/suspend-deactivate/. Provider staff only.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createdTenant,
  deleteTenantsBody,
  deletedTenants,
  envelope,
  idParam,
  listOf,
  suspendDeactivateBody,
  tenant,
  tenantBody,
  tenantListItem,
  tenantsQuery,
  updatedTenant,
} from '@farmland/contracts';
import { gate } from '../../lib/policy.js';
import { tenantsPolicy } from './tenants.policy.js';
import * as tenants from './tenants.service.js';

const tags = ['tenants'];
const provider = gate(tenantsPolicy, 'manage');

const messages = {
  suspended: 'Tenant suspended successfully',
  unsuspended: 'Tenant unsuspended successfully',
  deactivated: 'Tenant deactivated successfully',
  activated: 'Tenant activated successfully',
} as const;

export const tenantsRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;

  app.get('/base/tenants/', {
    config: provider,
    schema: {
      tags,
      summary: 'Tenants (newest first) with the current license merged in, number of agents and status; search, is_active, is_suspended, license_type, status',
      querystring: tenantsQuery,
      response: { 200: envelope(listOf(tenantListItem)) },
    },
    handler: async (req) => ({ data: await tenants.listTenants(deps, req.ctx, req.query, req.url) }),
  });

  app.post('/base/tenants/', {
    config: provider,
    schema: {
      tags,
      summary: 'Create a tenant with its admin (who gets the onboarding mail) and its license; the license key is in the answer, this once',
      body: tenantBody,
      response: { 201: envelope(createdTenant) },
    },
    handler: async (req, reply) =>
      reply.status(201).send({ data: await tenants.createTenant(deps, req.ctx, req.body), message: 'Tenant created successfully' }),
  });

  app.post('/base/tenants/delete/', {
    config: provider,
    schema: {
      tags,
      summary: 'Soft-delete tenants, all or nothing: one unknown or already deleted uuid deletes none (400 on uuids); the activity log stays',
      body: deleteTenantsBody,
      response: { 200: envelope(deletedTenants) },
    },
    handler: async (req) => {
      const data = await tenants.deleteTenants(deps, req.ctx, req.body.uuids);
      return { data, message: data.deleted === 1 ? 'Tenant deleted successfully' : `${data.deleted} tenants deleted successfully` };
    },
  });

  app.get('/base/tenants/:id/', {
    config: provider,
    schema: { tags, summary: 'One tenant: organisation, admin, current license', params: idParam, response: { 200: envelope(tenant) } },
    handler: async (req) => ({ data: await tenants.getTenant(deps, req.ctx, req.params.id) }),
  });

  app.put('/base/tenants/:id/', {
    config: provider,
    schema: {
      tags,
      summary:
        'Edit a tenant: the same payload as create. The license keeps its issued date (only expiry and price change); a type change issues a new license (its key in license_key, this once) and revokes the old one',
      params: idParam,
      body: tenantBody,
      response: { 200: envelope(updatedTenant) },
    },
    handler: async (req) => ({ data: await tenants.updateTenant(deps, req.ctx, req.params.id, req.body), message: 'Tenant edited successfully' }),
  });

  app.put('/base/tenants/:id/suspend-deactivate/', {
    config: provider,
    schema: {
      tags,
      summary:
        "Suspend/unsuspend (is_suspended) or deactivate/activate (is_active): the tenant's users are refused with the tenant gate's code from their next call",
      params: idParam,
      body: suspendDeactivateBody,
      response: { 200: envelope(tenant) },
    },
    handler: async (req) => {
      const { tenant: data, change } = await tenants.suspendDeactivate(deps, req.ctx, req.params.id, req.body);
      return { data, message: messages[change] };
    },
  });
};
