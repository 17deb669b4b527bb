// The tenant gate: an inactive or suspended tenant, or one whose license is revoked or expired, cannot act.
import { problems } from '../../lib/problems.js';
import type { TenantGateRow } from './auth.queries.js';

export function assertTenantGate(gate: TenantGateRow | null): void {
  if (!gate) throw problems.unauthenticated();
  if (!gate.isActive) throw problems.tenantGate('tenant_inactive');
  if (gate.isSuspended) throw problems.tenantGate('tenant_suspended');
  if (gate.licenseRevoked === null) throw problems.tenantGate('license_expired');
  if (gate.licenseRevoked) throw problems.tenantGate('license_revoked');
  if (gate.licenseExpired) throw problems.tenantGate('license_expired');
}
