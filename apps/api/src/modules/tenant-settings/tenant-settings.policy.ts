// Tenant configuration: its admins and agents read it (devices need the minimum farm size), only its admins change it;
// provider staff read any tenant's by tenant_id. The settings summary (with the license key) is for admins and provider staff.
import type { Ctx } from '../../context.js';
import { problems } from '../../lib/problems.js';

/** The tenant whose configuration is meant: a tenant user's own (naming another is a 404); provider staff must name one. */
export function tenantToRead(ctx: Ctx, tenantIdParam: string | undefined, roles: ReadonlyArray<'tenant_admin' | 'agent'>): string {
  const actor = ctx.actor;
  if (!actor) throw problems.unauthenticated();
  if (actor.role === 'super_admin') {
    if (!tenantIdParam) throw problems.field('tenant_id', 'Name the tenant (tenant_id)');
    return tenantIdParam;
  }
  if (!actor.tenantId || !roles.some((r) => r === actor.role)) throw problems.forbidden();
  if (tenantIdParam && tenantIdParam !== actor.tenantId) throw problems.notFound('Tenant');
  return actor.tenantId;
}

export function tenantToChange(ctx: Ctx, tenantIdParam: string | undefined): string {
  const actor = ctx.actor;
  if (!actor) throw problems.unauthenticated();
  if (actor.role !== 'tenant_admin' || !actor.tenantId) throw problems.forbidden('Only a tenant administrator can change the configuration.');
  if (tenantIdParam && tenantIdParam !== actor.tenantId) throw problems.notFound('Tenant');
  return actor.tenantId;
}
