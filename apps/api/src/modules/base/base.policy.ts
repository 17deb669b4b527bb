// Lookups are readable by any signed-in user. Regions belong to a tenant: its admins create them; provider staff read them all.
import type { Actor } from '../../context.js';
import { problems } from '../../lib/problems.js';

export function canCreateRegion(actor: Actor): asserts actor is Actor & { tenantId: string } {
  if (actor.role !== 'tenant_admin' || !actor.tenantId) throw problems.forbidden('Only a tenant administrator can create regions.');
}
