// The License table as an export (POST /base/export/licenses/): the key as its 10-character hint (keys are stored
// hashed), the derived status, and the list's filters. Provider staff only.
import { licensesQuery } from '@farmland/contracts';
import { withScope } from '../../../db/client.js';
import { licenseStatusOf } from '../../auth/tenant-gate.js';
import { listLicenses, type LicenseRow } from '../../licenses/licenses.queries.js';
import { defineExport } from '../exports.define.js';

const BATCH = 500;

type Filters = {
  search?: string | undefined;
  is_revoked?: boolean | undefined;
  is_expired?: boolean | undefined;
  type?: 'Platform' | 'SDK' | undefined;
  issued_date?: string | undefined;
  status?: 'Active' | 'Expired' | 'Revoked' | undefined;
  tenant_id?: string | undefined;
};

export const licensesExport = defineExport<LicenseRow, Filters>({
  name: 'licenses',
  subject: 'the licenses',
  action: 'licenses',
  columns: {
    id: { label: 'Id', value: (r) => r.id },
    tenant: { label: 'Tenant', value: (r) => r.tenant_name },
    tenant_id: { label: 'Tenant id', value: (r) => r.tenant_id },
    type: { label: 'Type', value: (r) => r.type },
    key: { label: 'Key (first 10 characters)', value: (r) => r.key_hint },
    issued_date: { label: 'Issued date', value: (r) => r.issued_date },
    expiry_date: { label: 'Expiry date', value: (r) => r.expiry_date },
    price: { label: 'Price', value: (r) => r.price },
    currency: { label: 'Currency', value: (r) => r.currency },
    status: { label: 'Status', value: (r) => licenseStatusOf(r.is_revoked, r.is_expired) },
  },
  aliases: { tenant_name: ['tenant'] },
  filters: licensesQuery.pick({ search: true, is_revoked: true, is_expired: true, type: true, issued_date: true, status: true, tenant_id: true }).strict(),
  batches: async function* (deps, _actor, f) {
    for (let offset = 0; ; offset += BATCH) {
      const { rows } = await withScope(deps.db, { kind: 'provider' }, (tx) =>
        listLicenses(
          tx,
          {
            search: f.search,
            isRevoked: f.is_revoked,
            isExpired: f.is_expired,
            type: f.type,
            issuedDate: f.issued_date,
            status: f.status,
            tenantId: f.tenant_id,
          },
          BATCH,
          offset,
        ),
      );
      if (rows.length === 0) return;
      yield rows;
      if (rows.length < BATCH) return;
    }
  },
});
