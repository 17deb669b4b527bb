// Who may write farmers: a tenant admin or an agent with a session, or the tenant's SDK license key; always in their own tenant.
import type { Ctx } from '../../context.js';
import { capturerOf, type Capturer } from '../farms/farms.policy.js';

export function canWriteFarmers(ctx: Ctx): Capturer {
  return capturerOf(ctx, ['agent', 'tenant_admin']);
}
