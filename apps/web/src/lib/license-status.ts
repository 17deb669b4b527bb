// A license's displayed status (docs/requirements.md §4): Revoked if revoked (it takes precedence), otherwise Expired if expired,
// otherwise Active; with the tag colour each screen uses.
import { textMap } from './text-map';
import { libText } from './lib.messages';
export type LicenseStatus = 'Revoked' | 'Expired' | 'Active';

export function licenseStatus(l: { is_revoked: boolean; is_expired: boolean }): LicenseStatus {
  if (l.is_revoked) return 'Revoked';
  if (l.is_expired) return 'Expired';
  return 'Active';
}

/** A status's label in the page's language (the status itself stays the English key). */
export const LICENSE_STATUS_LABEL: Readonly<Record<LicenseStatus, string>> = textMap({
  Revoked: libText.statusRevoked,
  Expired: libText.statusExpired,
  Active: libText.statusActive,
});

export const LICENSE_STATUS_COLOR: Record<LicenseStatus, string> = { Revoked: 'error', Expired: 'warning', Active: 'success' };

/** A license key shown truncated to 10 characters (docs/requirements.md §2). */
export const truncateKey = (key: string, length = 10): string => (key.length > length ? `${key.slice(0, length)}…` : key);
