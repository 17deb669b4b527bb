// Who may work with custom analyses: a tenant's administrators, on their own tenant's analyses only. Another tenant's
// analysis is reported as missing (404), exactly like one that does not exist.
import type { Actor } from '../../context.js';
import { problems } from '../../lib/problems.js';

/** The tenant whose analyses the actor manages; routes already admit tenant admins only. */
export function analysisTenant(actor: Actor): string {
  if (actor.role !== 'tenant_admin' || !actor.tenantId) throw problems.forbidden();
  return actor.tenantId;
}

export function mustExist<T extends { tenant_id: string }>(actor: Actor, analysis: T | null): T {
  if (!analysis || analysis.tenant_id !== actor.tenantId) throw problems.notFound('Analysis');
  return analysis;
}
