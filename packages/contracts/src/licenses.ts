// The provider's licenses: the list (search, is_revoked, is_expired, type, issued_date), revoke, and re-issue (SDK only,
// one more year). Status is derived: Revoked > Expired > Active (docs/requirements.md §4).
import { z } from 'zod';
import { emptyToUndefined, isoDate, pageNumber, pageSize, text, uuid } from './common.js';
import { license, licenseStatus, licenseType, looseBoolean } from './tenants.js';

const optional = <T extends z.ZodType>(s: T) => z.preprocess(emptyToUndefined, s.optional());

export const licensesQuery = z.object({
  page: pageNumber,
  page_size: pageSize,
  /** Tenant name or the key's first characters. */
  search: optional(text().trim().max(200)),
  is_revoked: optional(looseBoolean('is_revoked')),
  is_expired: optional(looseBoolean('is_expired')),
  type: optional(licenseType),
  /** Licenses issued on that day (YYYY-MM-DD). */
  issued_date: optional(isoDate),
  /** The derived status (Active, Expired, Revoked): a shortcut over is_revoked and is_expired. */
  status: optional(licenseStatus),
  /** One tenant's licenses. */
  tenant_id: optional(uuid),
});
export type LicensesQuery = z.infer<typeof licensesQuery>;

/**
 * POST /base/licenses/{id}/rotate-key/: the tenant's current license is replaced by a copy with a new key (same type,
 * dates and price) and the old one is revoked, so its key is refused from the next call. The new key is in the answer,
 * this once (license_key); afterwards only its first 10 characters (key) are shown.
 */
export const rotatedLicense = license.extend({ license_key: z.string() });
export type RotatedLicense = z.infer<typeof rotatedLicense>;
