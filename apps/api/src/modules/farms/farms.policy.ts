// Who may do what to farms. Reads: provider staff every tenant (optionally narrowed by tenant_id), tenant admins and
// agents their own tenant. Captures: an agent's session or the tenant's SDK license key. Retain and delete: tenant admins.
import type { Actor, Ctx, LicenseActor } from '../../context.js';
import type { Scope } from '../../db/client.js';
import { problems } from '../../lib/problems.js';

/** The reader's tenant filter and row-level-security scope. A tenant user naming another tenant gets a 404. */
export function readScope(ctx: Ctx, tenantIdParam?: string | undefined): { tenantId: string | null; scope: Scope } {
  const actor = ctx.actor;
  if (!actor) throw problems.unauthenticated();
  if (actor.role === 'super_admin') return tenantIdParam ? { tenantId: tenantIdParam, scope: { kind: 'provider' } } : { tenantId: null, scope: { kind: 'provider' } };
  if (!actor.tenantId) throw problems.forbidden();
  if (tenantIdParam && tenantIdParam !== actor.tenantId) throw problems.notFound('Tenant');
  return { tenantId: actor.tenantId, scope: { kind: 'tenant', tenantId: actor.tenantId } };
}

/** Who is capturing: an agent (or, for farmers, a tenant admin) with a session, or the tenant's SDK license key. */
export type Capturer = {
  tenantId: string;
  userId: string | null;
  name: string;
  source: 'agent' | 'sdk';
  actor: Actor | null;
  license: LicenseActor | null;
};

export function capturerOf(ctx: Ctx, roles: ReadonlyArray<'agent' | 'tenant_admin'>): Capturer {
  if (ctx.license) {
    return { tenantId: ctx.license.tenantId, userId: null, name: `SDK license …${ctx.license.keyHint}`, source: 'sdk', actor: null, license: ctx.license };
  }
  const actor = ctx.actor;
  if (!actor) throw problems.unauthenticated();
  if (!actor.tenantId || !roles.some((r) => r === actor.role)) throw problems.forbidden('Only field agents or an SDK license key can capture farms.');
  return { tenantId: actor.tenantId, userId: actor.userId, name: actor.name, source: 'agent', actor, license: null };
}

export function tenantScope(tenantId: string): Scope {
  return { kind: 'tenant', tenantId };
}

/** Retain and delete change other people's captures: tenant admins only, in their own tenant. */
export function canManageFarms(ctx: Ctx): Actor & { tenantId: string } {
  const actor = ctx.actor;
  if (!actor) throw problems.unauthenticated();
  if (actor.role !== 'tenant_admin' || !actor.tenantId) throw problems.forbidden('Only a tenant administrator can do this.');
  return actor as Actor & { tenantId: string };
}
