// All SQL of the provider's license list, revoke and re-issue. Licenses of deleted tenants are invisible here.
// These run in the provider scope.
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.js';
import { containsPattern, prefixPattern } from '../../db/like.js';
import { countList, type Total } from '../../db/pagination.js';

export type LicenseRow = {
  id: string;
  tenant_id: string;
  tenant_name: string;
  type: 'Platform' | 'SDK';
  issued_date: string;
  expiry_date: string;
  price: string;
  currency: string;
  key_hint: string;
  is_revoked: boolean;
  is_expired: boolean;
  revoked_at: Date | string | null;
  created_at: Date | string;
};

export type LicenseFilter = {
  search?: string | undefined;
  isRevoked?: boolean | undefined;
  isExpired?: boolean | undefined;
  type?: 'Platform' | 'SDK' | undefined;
  issuedDate?: string | undefined;
  status?: 'Active' | 'Expired' | 'Revoked' | undefined;
  tenantId?: string | undefined;
};

const columns = sql`
  SELECT l.id, l.tenant_id, t.name AS tenant_name, l.type, l.issued_date::text AS issued_date, l.expiry_date::text AS expiry_date,
         l.price::text AS price, l.currency, l.key_hint, l.is_revoked, (l.expiry_date < current_date) AS is_expired, l.revoked_at, l.created_at
    FROM licenses l JOIN tenants t ON t.id = l.tenant_id`;

function conditions(f: LicenseFilter): SQL {
  const conds: SQL[] = [sql`t.deleted_at IS NULL`];
  if (f.tenantId) conds.push(sql`l.tenant_id = ${f.tenantId}`);
  if (f.isRevoked !== undefined) conds.push(sql`l.is_revoked = ${f.isRevoked}`);
  if (f.isExpired !== undefined) conds.push(f.isExpired ? sql`l.expiry_date < current_date` : sql`l.expiry_date >= current_date`);
  if (f.type) conds.push(sql`l.type = ${f.type}`);
  if (f.issuedDate) conds.push(sql`l.issued_date = ${f.issuedDate}`);
  // The derived status, Revoked > Expired > Active (the tenant gate's rule).
  if (f.status === 'Revoked') conds.push(sql`l.is_revoked`);
  if (f.status === 'Expired') conds.push(sql`NOT l.is_revoked AND l.expiry_date < current_date`);
  if (f.status === 'Active') conds.push(sql`NOT l.is_revoked AND l.expiry_date >= current_date`);
  if (f.search) conds.push(sql`(t.name ILIKE ${containsPattern(f.search)} OR l.key_hint LIKE ${prefixPattern(f.search)})`);
  return sql`WHERE ${sql.join(conds, sql` AND `)}`;
}

/** One page of licenses (latest issued first) and the count. */
export async function listLicenses(tx: Executor, f: LicenseFilter, limit: number, offset: number): Promise<{ rows: LicenseRow[]; total: Total }> {
  const where = conditions(f);
  const rows = await queryRows<LicenseRow>(
    tx,
    sql`${columns} ${where} ORDER BY l.issued_date DESC, l.created_at DESC, l.id DESC LIMIT ${limit} OFFSET ${offset}`,
  );
  const total = await countList(tx, { from: sql`FROM licenses l JOIN tenants t ON t.id = l.tenant_id ${where}` }, offset, rows.length, limit);
  return { rows, total };
}

export async function findLicense(tx: Executor, id: string): Promise<LicenseRow | null> {
  const rows = await queryRows<LicenseRow>(tx, sql`${columns} WHERE l.id = ${id} AND t.deleted_at IS NULL`);
  return rows[0] ?? null;
}

export async function revokeLicense(tx: Executor, tenantId: string, id: string): Promise<void> {
  await tx.execute(
    sql`UPDATE licenses SET is_revoked = true, revoked_at = now(), updated_at = now() WHERE tenant_id = ${tenantId} AND id = ${id} AND NOT is_revoked`,
  );
}

/** Re-issue: one more year from the later of the expiry date and today, and no longer revoked. */
export async function reissueLicense(tx: Executor, tenantId: string, id: string): Promise<void> {
  await tx.execute(sql`
    UPDATE licenses SET expiry_date = (greatest(expiry_date, current_date) + interval '1 year')::date, is_revoked = false, revoked_at = NULL, updated_at = now()
     WHERE tenant_id = ${tenantId} AND id = ${id}`);
}

/**
 * The license's live tenant, locked for the rest of the transaction (FOR UPDATE OF t). Every tenant and license state
 * change takes this lock first, so a concurrent delete, edit, revoke, re-issue or rotation waits for this one; a tenant
 * deleted meanwhile is re-checked after the wait and reads as missing (404), never as a half-read row.
 */
export async function lockLicenseTenant(tx: Executor, id: string): Promise<string | null> {
  const rows = await queryRows<{ tenant_id: string }>(
    tx,
    sql`SELECT t.id AS tenant_id FROM licenses l JOIN tenants t ON t.id = l.tenant_id WHERE l.id = ${id} AND t.deleted_at IS NULL FOR UPDATE OF t`,
  );
  return rows[0]?.tenant_id ?? null;
}

/** The tenant's current license id: the latest issued (the tenant gate's rule, index licenses_tenant_current_idx). */
export async function currentLicenseId(tx: Executor, tenantId: string): Promise<string | null> {
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`SELECT id FROM licenses WHERE tenant_id = ${tenantId} ORDER BY issued_date DESC, created_at DESC LIMIT 1`,
  );
  return rows[0]?.id ?? null;
}

/**
 * Key rotation: a copy of the license (type, dates, price, currency) with a new key. Created after the old one with the
 * same issued date, it is the tenant's current license.
 */
export async function insertRotatedLicense(tx: Executor, tenantId: string, fromId: string, key: { keyHash: string; keyHint: string }): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    tx,
    sql`INSERT INTO licenses (tenant_id, type, issued_date, expiry_date, price, currency, key_hash, key_hint)
        SELECT tenant_id, type, issued_date, expiry_date, price, currency, ${key.keyHash}, ${key.keyHint} FROM licenses WHERE tenant_id = ${tenantId} AND id = ${fromId}
        RETURNING id`,
  );
  return row!.id;
}
