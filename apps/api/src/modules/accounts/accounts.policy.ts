// Who may read and change a user account: themselves; provider staff any account; tenant admins the accounts of their tenant.
// A user the actor may not see is reported as missing (404), never as forbidden.
import type { Actor } from '../../context.js';
import { problems } from '../../lib/problems.js';

type Target = { id: string; tenantId: string | null };

export function canSeeUser(actor: Actor, target: Target | null): asserts target is Target {
  if (!target) throw problems.notFound('User');
  const ok = actor.role === 'super_admin' || target.id === actor.userId || (actor.role === 'tenant_admin' && target.tenantId === actor.tenantId);
  if (!ok) throw problems.notFound('User');
}

export const canEditUser: typeof canSeeUser = canSeeUser;

/** Resetting an account is an administrator's act on someone else's account. */
export function canResetUser(actor: Actor, target: Target | null): asserts target is Target {
  canSeeUser(actor, target);
  if (target.id === actor.userId) throw problems.forbidden('You cannot reset your own account. Use change password instead.');
  if (actor.role === 'agent') throw problems.notFound('User');
}
