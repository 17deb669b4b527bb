// The tenant gate: an inactive or suspended tenant, or one whose license is revoked or expired, cannot act. This is the
// one rule for both ways of acting: a user's session (checked against the tenant's current license, the latest issued)
// and an SDK license key (checked against the license the key belongs to). A deleted tenant has no gate row at all.
import { problems } from '../../lib/problems.js';
import type { TenantGateRow } from './auth.queries.js';

export type LicenseStatusName = 'Active' | 'Expired' | 'Revoked';

/** The derived license status (docs/requirements.md §4): Revoked takes precedence over Expired, otherwise Active. */
export function licenseStatusOf(isRevoked: boolean, isExpired: boolean): LicenseStatusName {
  if (isRevoked) return 'Revoked';
  if (isExpired) return 'Expired';
  return 'Active';
}

export function assertTenantGate(gate: Pick<TenantGateRow, 'isActive' | 'isSuspended' | 'licenseRevoked' | 'licenseExpired'> | null): void {
  if (!gate) throw problems.unauthenticated();
  if (!gate.isActive) throw problems.tenantGate('tenant_inactive');
  if (gate.isSuspended) throw problems.tenantGate('tenant_suspended');
  // No license at all: the tenant cannot act, as with an expired one.
  if (gate.licenseRevoked === null || gate.licenseExpired === null) throw problems.tenantGate('license_expired');
  const status = licenseStatusOf(gate.licenseRevoked, gate.licenseExpired);
  if (status === 'Revoked') throw problems.tenantGate('license_revoked');
  if (status === 'Expired') throw problems.tenantGate('license_expired');
}
