// All SQL of the provider's tenants: the list with the current license merged in (the latest issued, the tenant gate's
// rule), details, writes, flags and the soft delete. Deleted tenants (deleted_at set) are invisible to every query here.
// These run in the provider scope; the tenant id is the record's own id.
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, uuidArray, type Executor } from '../../db/client.js';
import { containsPattern } from '../../db/like.js';
import { countList, type Total } from '../../db/pagination.js';

export type TenantRow = {
  id: string;
  name: string;
  address: string | null;
  phone_number: string | null;
  email: string | null;
  city: string | null;
  city_id: string | null;
  country: string | null;
  country_id: string | null;
  state: string | null;
  state_id: string | null;
  enable_farm_sync: boolean;
  is_active: boolean;
  is_suspended: boolean;
  created_at: Date | string;
  number_of_agents: number;
  admin_id: string | null;
  admin_email: string | null;
  admin_first_name: string | null;
  admin_last_name: string | null;
  admin_phone_number: string | null;
  license_id: string | null;
  license_type: 'Platform' | 'SDK' | null;
  license_issued_date: string | null;
  license_expiry_date: string | null;
  license_price: string | null;
  license_currency: string | null;
  license_key_hint: string | null;
  license_is_revoked: boolean | null;
  license_is_expired: boolean | null;
  license_revoked_at: Date | string | null;
  license_created_at: Date | string | null;
};

export type TenantFilter = {
  search?: string | undefined;
  isActive?: boolean | undefined;
  isSuspended?: boolean | undefined;
  licenseType?: 'Platform' | 'SDK' | undefined;
  status?: 'Active' | 'Inactive' | 'Suspended' | undefined;
};

/** The tenant's current license: the latest issued (index licenses_tenant_current_idx). */
const currentLicense = sql`
  LEFT JOIN LATERAL (
    SELECT l.id, l.type, l.issued_date, l.expiry_date, l.price, l.currency, l.key_hint, l.is_revoked, l.revoked_at, l.created_at
      FROM licenses l WHERE l.tenant_id = t.id ORDER BY l.issued_date DESC, l.created_at DESC LIMIT 1
  ) cl ON true`;

function conditions(f: TenantFilter): SQL {
  const conds: SQL[] = [sql`t.deleted_at IS NULL`];
  if (f.isActive !== undefined) conds.push(sql`t.is_active = ${f.isActive}`);
  if (f.isSuspended !== undefined) conds.push(sql`t.is_suspended = ${f.isSuspended}`);
  if (f.status === 'Active') conds.push(sql`t.is_active AND NOT t.is_suspended`);
  if (f.status === 'Inactive') conds.push(sql`NOT t.is_active`);
  if (f.status === 'Suspended') conds.push(sql`t.is_active AND t.is_suspended`);
  if (f.licenseType) conds.push(sql`cl.type = ${f.licenseType}`);
  if (f.search) {
    const p = containsPattern(f.search);
    conds.push(sql`(t.name ILIKE ${p} OR t.email ILIKE ${p} OR t.phone_number ILIKE ${p} OR t.city ILIKE ${p}
                    OR EXISTS (SELECT 1 FROM users a WHERE a.tenant_id = t.id AND a.role = 'tenant_admin'
                                  AND (a.email ILIKE ${p} OR (a.first_name || ' ' || a.last_name) ILIKE ${p})))`);
  }
  return sql`WHERE ${sql.join(conds, sql` AND `)}`;
}

const details = sql`
  SELECT t.id, t.name, t.address, t.phone_number, t.email, t.city, t.city_id, c.name AS country, t.country_id, s.name AS state, t.state_id,
         t.enable_farm_sync, t.is_active, t.is_suspended, t.created_at,
         (SELECT count(*)::int FROM users ag WHERE ag.tenant_id = t.id AND ag.role = 'agent') AS number_of_agents,
         ad.id AS admin_id, ad.email AS admin_email, ad.first_name AS admin_first_name, ad.last_name AS admin_last_name, ad.phone_number AS admin_phone_number,
         cl.id AS license_id, cl.type AS license_type, cl.issued_date::text AS license_issued_date, cl.expiry_date::text AS license_expiry_date,
         cl.price::text AS license_price, cl.currency AS license_currency, cl.key_hint AS license_key_hint, cl.is_revoked AS license_is_revoked,
         (cl.expiry_date < current_date) AS license_is_expired, cl.revoked_at AS license_revoked_at, cl.created_at AS license_created_at
    FROM tenants t
    LEFT JOIN countries c ON c.id = t.country_id
    LEFT JOIN states s ON s.id = t.state_id
    LEFT JOIN LATERAL (
      SELECT u.id, u.email, u.first_name, u.last_name, u.phone_number FROM users u
       WHERE u.tenant_id = t.id AND u.role = 'tenant_admin' ORDER BY u.created_at, u.id LIMIT 1
    ) ad ON true
    ${currentLicense}`;

/** One page of live tenants (newest first) with admin and current license, and the count. */
export async function listTenants(tx: Executor, f: TenantFilter, limit: number, offset: number): Promise<{ rows: TenantRow[]; total: Total }> {
  const where = conditions(f);
  const join = f.licenseType ? currentLicense : sql``;
  // The page's ids first (the admin, license and agent count are read for those rows only, not for every tenant).
  const ids = await queryRows<{ id: string }>(
    tx,
    sql`SELECT t.id FROM tenants t ${join} ${where} ORDER BY t.created_at DESC, t.id DESC LIMIT ${limit} OFFSET ${offset}`,
  );
  const total = await countList(tx, { from: sql`FROM tenants t ${join} ${where}` }, offset, ids.length, limit);
  if (ids.length === 0) return { rows: [], total };
  const rows = await queryRows<TenantRow>(tx, sql`${details} WHERE t.id = ANY(${uuidArray(ids.map((r) => r.id))}) ORDER BY t.created_at DESC, t.id DESC`);
  return { rows, total };
}

export async function findTenant(tx: Executor, id: string): Promise<TenantRow | null> {
  const rows = await queryRows<TenantRow>(tx, sql`${details} WHERE t.id = ${id} AND t.deleted_at IS NULL`);
  return rows[0] ?? null;
}

/** Whether a live tenant other than exceptId already uses this organisation email. */
export async function tenantEmailTaken(tx: Executor, email: string, exceptId: string | null): Promise<boolean> {
  const rows = await queryRows<{ one: number }>(
    tx,
    sql`SELECT 1 AS one FROM tenants WHERE deleted_at IS NULL AND lower(email) = lower(${email}) ${exceptId ? sql`AND id <> ${exceptId}` : sql``} LIMIT 1`,
  );
  return rows.length > 0;
}

export type Place = { countryId: string; stateId: string | null; cityId: string | null; city: string | null };

export type TenantValues = Place & { name: string; address: string | null; phoneNumber: string; email: string; enableFarmSync: boolean };

export async function insertTenant(tx: Executor, v: TenantValues): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    tx,
    sql`INSERT INTO tenants (name, address, phone_number, email, country_id, state_id, city_id, city, enable_farm_sync)
        VALUES (${v.name}, ${v.address}, ${v.phoneNumber}, ${v.email}, ${v.countryId}, ${v.stateId}, ${v.cityId}, ${v.city}, ${v.enableFarmSync})
        RETURNING id`,
  );
  await tx.execute(sql`INSERT INTO tenant_configurations (tenant_id) VALUES (${row!.id}) ON CONFLICT DO NOTHING`);
  return row!.id;
}

export async function updateTenant(tx: Executor, id: string, v: TenantValues): Promise<void> {
  await tx.execute(sql`
    UPDATE tenants SET name = ${v.name}, address = ${v.address}, phone_number = ${v.phoneNumber}, email = ${v.email}, country_id = ${v.countryId},
           state_id = ${v.stateId}, city_id = ${v.cityId}, city = ${v.city}, enable_farm_sync = ${v.enableFarmSync}, updated_at = now()
     WHERE id = ${id} AND deleted_at IS NULL`);
}

export type LicenseValues = { type: 'Platform' | 'SDK'; issuedDate: string; expiryDate: string; price: string };

export async function insertLicense(tx: Executor, tenantId: string, v: LicenseValues, key: { keyHash: string; keyHint: string }): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    tx,
    sql`INSERT INTO licenses (tenant_id, type, issued_date, expiry_date, price, key_hash, key_hint)
        VALUES (${tenantId}, ${v.type}, ${v.issuedDate}, ${v.expiryDate}, ${v.price}, ${key.keyHash}, ${key.keyHint}) RETURNING id`,
  );
  return row!.id;
}

/** An edit of the current license keeps its type and its issued date: only the expiry date and the price change. */
export async function updateLicenseTerms(tx: Executor, tenantId: string, licenseId: string, v: { expiryDate: string; price: string }): Promise<void> {
  await tx.execute(sql`
    UPDATE licenses SET expiry_date = ${v.expiryDate}, price = ${v.price}, updated_at = now()
     WHERE tenant_id = ${tenantId} AND id = ${licenseId}`);
}

/** A license replaced by a new one (a type change on edit): revoked, so its key stops working, and kept in the history. */
export async function supersedeLicense(tx: Executor, tenantId: string, licenseId: string): Promise<void> {
  await tx.execute(
    sql`UPDATE licenses SET is_revoked = true, revoked_at = coalesce(revoked_at, now()), updated_at = now() WHERE tenant_id = ${tenantId} AND id = ${licenseId}`,
  );
}

export type AdminValues = { email: string; firstName: string; lastName: string; phoneNumber: string };

export async function insertAdmin(tx: Executor, tenantId: string, v: AdminValues): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    tx,
    sql`INSERT INTO users (tenant_id, role, email, first_name, last_name, phone_number)
        VALUES (${tenantId}, 'tenant_admin', ${v.email}, ${v.firstName}, ${v.lastName}, ${v.phoneNumber}) RETURNING id`,
  );
  return row!.id;
}

export async function updateAdmin(tx: Executor, tenantId: string, userId: string, v: AdminValues): Promise<void> {
  await tx.execute(sql`
    UPDATE users SET email = ${v.email}, first_name = ${v.firstName}, last_name = ${v.lastName}, phone_number = ${v.phoneNumber}, updated_at = now()
     WHERE tenant_id = ${tenantId} AND id = ${userId} AND role = 'tenant_admin'`);
}

export async function setFlags(tx: Executor, id: string, flags: { isActive?: boolean | undefined; isSuspended?: boolean | undefined }): Promise<void> {
  await tx.execute(sql`
    UPDATE tenants SET is_active = coalesce(${flags.isActive ?? null}::boolean, is_active),
                       is_suspended = coalesce(${flags.isSuspended ?? null}::boolean, is_suspended), updated_at = now()
     WHERE id = ${id} AND deleted_at IS NULL`);
}

/**
 * The live tenant, locked for the rest of the transaction (FOR UPDATE): every tenant and license state change takes it
 * first, so edits, flag changes, license changes and the delete run one after another; a tenant deleted meanwhile is
 * re-checked after the wait and reads as missing.
 */
export async function lockTenant(tx: Executor, id: string): Promise<boolean> {
  return (await queryRows<{ id: string }>(tx, sql`SELECT id FROM tenants WHERE id = ${id} AND deleted_at IS NULL FOR UPDATE`)).length > 0;
}

/** The live tenants among ids, locked for the rest of the transaction (the bulk delete checks all before it changes any). */
export async function lockLiveTenants(tx: Executor, ids: readonly string[]): Promise<Array<{ id: string; name: string }>> {
  return queryRows<{ id: string; name: string }>(
    tx,
    sql`SELECT id, name FROM tenants WHERE id = ANY(${uuidArray(ids)}) AND deleted_at IS NULL ORDER BY id FOR UPDATE`,
  );
}

/** Soft delete: the tenants disappear from every provider view and their users can no longer act (the gate finds no tenant). */
export async function softDeleteTenants(tx: Executor, ids: readonly string[]): Promise<void> {
  await tx.execute(sql`UPDATE tenants SET deleted_at = now(), is_active = false, updated_at = now() WHERE id = ANY(${uuidArray(ids)}) AND deleted_at IS NULL`);
}

/** Lookups for the payload: the country, the state of that country, and the city (an id of that country, or a name). */
export async function resolvePlace(
  tx: Executor,
  countryId: string,
  stateId: string | undefined,
  city: string | undefined,
): Promise<{ country: boolean; state: boolean; city: { id: string; name: string } | null }> {
  const [c] = await queryRows<{ ok: boolean }>(tx, sql`SELECT EXISTS (SELECT 1 FROM countries WHERE id = ${countryId}) AS ok`);
  const [s] = stateId
    ? await queryRows<{ ok: boolean }>(tx, sql`SELECT EXISTS (SELECT 1 FROM states WHERE id = ${stateId} AND country_id = ${countryId}) AS ok`)
    : [{ ok: true }];
  let found: { id: string; name: string } | null = null;
  if (city && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(city)) {
    [found = null] = await queryRows<{ id: string; name: string }>(tx, sql`SELECT id, name FROM cities WHERE id = ${city} AND country_id = ${countryId}`);
  } else if (city) {
    [found = null] = await queryRows<{ id: string; name: string }>(
      tx,
      sql`SELECT id, name FROM cities WHERE country_id = ${countryId} AND lower(name) = lower(${city}) ${stateId ? sql`ORDER BY (state_id = ${stateId}) DESC` : sql``} LIMIT 1`,
    );
  }
  return { country: !!c?.ok, state: !!s?.ok, city: found };
}
