// Who may do what to agents: tenant admins manage their own tenant's agents; provider staff may read every tenant's.
// An agent of another tenant is reported as missing (404), never as forbidden.
import type { Actor, Ctx } from '../../context.js';
import type { Scope } from '../../db/client.js';
import { problems } from '../../lib/problems.js';

/** The reader's tenant filter (null: every tenant) and row-level-security scope. */
export function canReadAgents(ctx: Ctx, tenantIdParam?: string | undefined): { tenantId: string | null; scope: Scope } {
  const actor = ctx.actor;
  if (!actor) throw problems.unauthenticated();
  if (actor.role === 'super_admin') return { tenantId: tenantIdParam ?? null, scope: { kind: 'provider' } };
  if (actor.role !== 'tenant_admin' || !actor.tenantId) throw problems.forbidden();
  if (tenantIdParam && tenantIdParam !== actor.tenantId) throw problems.notFound('Tenant');
  return { tenantId: actor.tenantId, scope: { kind: 'tenant', tenantId: actor.tenantId } };
}

/** Create, edit, suspend, delete and bulk upload: a tenant admin, in their own tenant. */
export function canManageAgents(ctx: Ctx): Actor & { tenantId: string } {
  const actor = ctx.actor;
  if (!actor) throw problems.unauthenticated();
  if (actor.role !== 'tenant_admin' || !actor.tenantId) throw problems.forbidden('Only a tenant administrator can manage agents.');
  return actor as Actor & { tenantId: string };
}
