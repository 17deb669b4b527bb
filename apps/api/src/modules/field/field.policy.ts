// The field app's reads: an agent (or a tenant admin) of a tenant, for that tenant only; provider staff have no field app.
import type { Actor, Ctx } from '../../context.js';
import { problems } from '../../lib/problems.js';

export function canDownloadField(ctx: Ctx): Actor & { tenantId: string } {
  const actor = ctx.actor;
  if (!actor) throw problems.unauthenticated();
  if ((actor.role !== 'agent' && actor.role !== 'tenant_admin') || !actor.tenantId) throw problems.forbidden('The field download is for field agents and tenant administrators.');
  return actor as Actor & { tenantId: string };
}
