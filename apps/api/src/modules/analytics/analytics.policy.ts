// Tenant analytics: a tenant's admins read their own tenant's (naming another tenant is a 404); provider staff read one
// tenant's with tenant_id, or every tenant's together without it. Agents do not see the dashboard.
import type { Ctx } from '../../context.js';
import type { Scope } from '../../db/client.js';
import { problems } from '../../lib/problems.js';

export function analyticsScope(ctx: Ctx, tenantIdParam: string | undefined): { tenantId: string | null; scope: Scope } {
  const actor = ctx.actor;
  if (!actor) throw problems.unauthenticated();
  if (actor.role === 'super_admin') return { tenantId: tenantIdParam ?? null, scope: { kind: 'provider' } };
  if (actor.role !== 'tenant_admin' || !actor.tenantId) throw problems.forbidden();
  if (tenantIdParam && tenantIdParam !== actor.tenantId) throw problems.notFound('Tenant');
  return { tenantId: actor.tenantId, scope: { kind: 'tenant', tenantId: actor.tenantId } };
}

/** The provider's own analytics (tenants, licenses, the ranking of tenants, Reports): super-admins only. */
export function providerAnalytics(ctx: Ctx): Scope {
  const actor = ctx.actor;
  if (!actor) throw problems.unauthenticated();
  if (actor.role !== 'super_admin') throw problems.forbidden('Only provider staff can read the provider analytics.');
  return { kind: 'provider' };
}
