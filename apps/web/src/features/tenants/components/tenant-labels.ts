// The names the tenant screens give to enum values (tenant status, license status and type) in the page's language. A
// value the console does not know shows as the API sent it.
import type { LicenseType, TenantStatus } from '../api/tenant-types';
import type { LicenseStatus } from '../../../lib/license-status';
import { t, type Text } from '../../../i18n';
import { tenantsText as m } from '../tenants.messages';

const TENANT_STATUS: Record<TenantStatus, Text> = { Active: m.statusActive, Suspended: m.statusSuspended, Inactive: m.statusInactive };
const LICENSE_STATUS: Record<LicenseStatus, Text> = { Active: m.licenseActive, Expired: m.licenseExpired, Revoked: m.licenseRevoked };
const LICENSE_TYPE: Record<LicenseType, Text> = { Platform: m.platform, SDK: m.sdk };

const label = <K extends string>(table: Record<K, Text>, value: K | null | undefined): string => {
  if (value === null || value === undefined) return '--';
  const text = (table as Record<string, Text | undefined>)[value];
  return text ? t(text) : value;
};

export const tenantStatusLabel = (s: TenantStatus | null | undefined) => label(TENANT_STATUS, s);
export const licenseStatusLabel = (s: LicenseStatus | null | undefined) => label(LICENSE_STATUS, s);
export const licenseTypeLabel = (s: LicenseType | null | undefined) => label(LICENSE_TYPE, s);
