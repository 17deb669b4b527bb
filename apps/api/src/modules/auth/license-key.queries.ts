// The SDK license key lookup for field capture: runs in the 'system' scope, because the key is what names the tenant.
import { sql } from 'drizzle-orm';
import { scopedRows, type Db } from '../../db/client.js';
import { sha256 } from '../../lib/crypto.js';

export type LicenseKeyRow = {
  license_id: string;
  tenant_id: string;
  tenant_name: string;
  type: 'Platform' | 'SDK';
  is_revoked: boolean;
  is_expired: boolean;
  tenant_active: boolean;
  tenant_suspended: boolean;
  country_name: string | null;
};

/** One statement in the 'system' scope, one round trip with the scope (scopedRows). */
export async function findLicenseByKey(db: Db, key: string): Promise<LicenseKeyRow | null> {
  const rows = await scopedRows<LicenseKeyRow>(
    db,
    { kind: 'system' },
    sql`SELECT l.id AS license_id, l.tenant_id, t.name AS tenant_name, l.type, l.is_revoked, (l.expiry_date < current_date) AS is_expired,
               t.is_active AS tenant_active, t.is_suspended AS tenant_suspended, c.name AS country_name
          FROM licenses l
          JOIN tenants t ON t.id = l.tenant_id
          LEFT JOIN countries c ON c.id = t.country_id
         WHERE l.key_hash = ${sha256(key)} AND t.deleted_at IS NULL
         LIMIT 1`,
  );
  return rows[0] ?? null;
}
