// Tenant row → API shape: an explicit whitelist (the admin's password and two-factor state never leave; the license key
// is its 10-character hint). Status: Inactive over Suspended over Active, the tenant gate's order.
import type { Tenant, TenantListItem, TenantStatus } from '@farmland/contracts';
import { licenseStatusOf } from '../auth/tenant-gate.js';
import type { TenantRow } from './tenants.queries.js';

const iso = (d: Date | string) => new Date(d).toISOString();

export function tenantStatusOf(isActive: boolean, isSuspended: boolean): TenantStatus {
  if (!isActive) return 'Inactive';
  if (isSuspended) return 'Suspended';
  return 'Active';
}

export function presentTenant(r: TenantRow): Tenant {
  return {
    id: r.id,
    uuid: r.id,
    name: r.name,
    address: r.address,
    phone_number: r.phone_number,
    email: r.email,
    city: r.city,
    city_id: r.city_id,
    country: r.country,
    country_id: r.country_id,
    state: r.state,
    state_id: r.state_id,
    enable_farm_sync: r.enable_farm_sync,
    is_active: r.is_active,
    is_suspended: r.is_suspended,
    status: tenantStatusOf(r.is_active, r.is_suspended),
    admin: r.admin_id
      ? {
          id: r.admin_id,
          email: r.admin_email ?? '',
          first_name: r.admin_first_name ?? '',
          last_name: r.admin_last_name ?? '',
          phone_number: r.admin_phone_number,
        }
      : null,
    license: r.license_id
      ? {
          id: r.license_id,
          type: r.license_type!,
          issued_date: r.license_issued_date!,
          expiry_date: r.license_expiry_date!,
          price: r.license_price ?? '0',
          currency: r.license_currency ?? 'NGN',
          key: r.license_key_hint ?? '',
          is_expired: !!r.license_is_expired,
          is_revoked: !!r.license_is_revoked,
          status: licenseStatusOf(!!r.license_is_revoked, !!r.license_is_expired),
          revoked_at: r.license_revoked_at ? iso(r.license_revoked_at) : null,
          created_at: iso(r.license_created_at ?? r.created_at),
        }
      : null,
    number_of_agents: r.number_of_agents,
    registration_date: iso(r.created_at),
  };
}

/** A list row: the tenant with its current license's fields merged in at the top level, as the spec's list shows them. */
export function presentTenantListItem(r: TenantRow): TenantListItem {
  const t = presentTenant(r);
  return {
    ...t,
    type: t.license?.type ?? null,
    issued_date: t.license?.issued_date ?? null,
    expiry_date: t.license?.expiry_date ?? null,
    price: t.license?.price ?? null,
    license_status: t.license?.status ?? null,
  };
}
