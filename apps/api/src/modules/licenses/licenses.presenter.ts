// License row → API shape: the key is its 10-character hint (the key is stored hashed), the status derived by the
// tenant gate's one rule (Revoked > Expired > Active).
import type { License } from '@farmland/contracts';
import { licenseStatusOf } from '../auth/tenant-gate.js';
import type { LicenseRow } from './licenses.queries.js';

const iso = (d: Date | string) => new Date(d).toISOString();

export function presentLicense(r: LicenseRow): License {
  return {
    id: r.id,
    tenant: r.tenant_id,
    tenant_name: r.tenant_name,
    type: r.type,
    issued_date: r.issued_date,
    expiry_date: r.expiry_date,
    price: r.price,
    currency: r.currency,
    key: r.key_hint,
    is_expired: r.is_expired,
    is_revoked: r.is_revoked,
    status: licenseStatusOf(r.is_revoked, r.is_expired),
    revoked_at: r.revoked_at ? iso(r.revoked_at) : null,
    created_at: iso(r.created_at),
  };
}
