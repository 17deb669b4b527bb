// Operational areas: tenant admins create, edit and delete their tenant's; agents read their tenant's; provider staff read all.
import type { Actor, Ctx } from '../../context.js';
import { problems } from '../../lib/problems.js';

export function canWriteAreas(ctx: Ctx): Actor & { tenantId: string } {
  const actor = ctx.actor;
  if (!actor) throw problems.unauthenticated();
  if (actor.role !== 'tenant_admin' || !actor.tenantId) throw problems.forbidden('Only a tenant administrator can change operational areas.');
  return actor as Actor & { tenantId: string };
}
