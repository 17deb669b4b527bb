// Who may read the activity log: provider staff (every tenant) and tenant admins (their own tenant). Agents may not.
import type { Actor } from '../../context.js';
import { problems } from '../../lib/problems.js';

export function canListActivity(actor: Actor): void {
  if (actor.role !== 'super_admin' && actor.role !== 'tenant_admin') throw problems.forbidden();
}
