// Who may manage tenants: provider staff (super-admins) only. Everyone else is refused with 403 before anything is read.
import type { Actor, Ctx } from '../../context.js';
import { problems } from '../../lib/problems.js';

export function canManageTenants(ctx: Ctx): Actor {
  const actor = ctx.actor;
  if (!actor) throw problems.unauthenticated();
  if (actor.role !== 'super_admin') throw problems.forbidden('Only provider staff can manage tenants and licenses.');
  return actor;
}
