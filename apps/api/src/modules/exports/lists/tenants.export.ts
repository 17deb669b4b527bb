// The Tenants table as an export (POST /base/export/tenants/): the list's columns with the current license merged in,
// and the list's search, is_active, is_suspended, license_type and status filters. Provider staff only.
import { tenantsQuery } from '@farmland/contracts';
import { withScope } from '../../../db/client.js';
import { listTenants, type TenantRow } from '../../tenants/tenants.queries.js';
import { tenantStatusOf } from '../../tenants/tenants.presenter.js';
import { licenseStatusOf } from '../../auth/tenant-gate.js';
import { defineExport } from '../exports.define.js';

const BATCH = 500;
const iso = (d: Date | string) => new Date(d).toISOString();
const adminName = (r: TenantRow) => (r.admin_id ? `${r.admin_first_name ?? ''} ${r.admin_last_name ?? ''}`.trim() : '');

export const tenantsExport = defineExport<
  TenantRow,
  {
    search?: string | undefined;
    is_active?: boolean | undefined;
    is_suspended?: boolean | undefined;
    license_type?: 'Platform' | 'SDK' | undefined;
    status?: 'Active' | 'Inactive' | 'Suspended' | undefined;
  }
>({
  name: 'tenants',
  subject: 'the tenants',
  action: 'tenants',
  columns: {
    id: { label: 'Id', value: (r) => r.id },
    name: { label: 'Organisation', value: (r) => r.name },
    email: { label: 'Email', value: (r) => r.email ?? '' },
    phone_number: { label: 'Phone', value: (r) => r.phone_number ?? '' },
    address: { label: 'Address', value: (r) => r.address ?? '' },
    city: { label: 'City', value: (r) => r.city ?? '' },
    state: { label: 'State', value: (r) => r.state ?? '' },
    country: { label: 'Country', value: (r) => r.country ?? '' },
    admin_name: { label: 'Admin', value: adminName },
    admin_email: { label: 'Admin email', value: (r) => r.admin_email ?? '' },
    admin_phone_number: { label: 'Admin phone', value: (r) => r.admin_phone_number ?? '' },
    type: { label: 'License type', value: (r) => r.license_type ?? '' },
    number_of_agents: { label: 'Number of agents', value: (r) => r.number_of_agents },
    issued_date: { label: 'Issued date', value: (r) => r.license_issued_date ?? '' },
    expiry_date: { label: 'Expiry date', value: (r) => r.license_expiry_date ?? '' },
    price: { label: 'Price', value: (r) => r.license_price ?? '' },
    license_status: { label: 'License status', value: (r) => (r.license_id ? licenseStatusOf(!!r.license_is_revoked, !!r.license_is_expired) : '') },
    enable_farm_sync: { label: 'Farm sync', value: (r) => (r.enable_farm_sync ? 'Yes' : 'No') },
    registration_date: { label: 'Registration date', value: (r) => iso(r.created_at) },
    status: { label: 'Status', value: (r) => tenantStatusOf(r.is_active, r.is_suspended) },
  },
  aliases: { organisation: ['name'], license_type: ['type'], admin: ['admin_name', 'admin_email'] },
  filters: tenantsQuery.pick({ search: true, is_active: true, is_suspended: true, license_type: true, status: true }).strict(),
  batches: async function* (deps, _actor, f) {
    for (let offset = 0; ; offset += BATCH) {
      const { rows } = await withScope(deps.db, { kind: 'provider' }, (tx) =>
        listTenants(tx, { search: f.search, isActive: f.is_active, isSuspended: f.is_suspended, licenseType: f.license_type, status: f.status }, BATCH, offset),
      );
      if (rows.length === 0) return;
      yield rows;
      if (rows.length < BATCH) return;
    }
  },
});
