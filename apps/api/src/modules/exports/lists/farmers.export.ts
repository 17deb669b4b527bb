// The Farmers table as an export (POST /base/export/farmers/): the screen's columns (farmer_name expands to first and last
// name) plus email, gender, location, region and country; the list's search, is_mapped and region filters.
import { farmersQuery } from '@farmland/contracts';
import { scopeOf } from '../../../context.js';
import { withScope } from '../../../db/client.js';
import { listFarmers, type FarmerRow } from '../../farmers/farmers.queries.js';
import { defineExport, NAME_ALIASES } from '../exports.define.js';

const BATCH = 1000;
const iso = (d: Date | string) => new Date(d).toISOString();

export const farmersExport = defineExport<FarmerRow, { search?: string | undefined; is_mapped?: boolean | undefined; region?: string | undefined }>({
  name: 'farmers',
  subject: 'the farmers',
  action: 'farmers',
  columns: {
    id: { label: 'Id', value: (r) => r.id },
    first_name: { label: 'First name', value: (r) => r.first_name },
    last_name: { label: 'Last name', value: (r) => r.last_name },
    folio_id: { label: "Farmer's id", value: (r) => r.folio_id },
    phone_number: { label: 'Phone', value: (r) => r.phone_number ?? '' },
    email: { label: 'Email', value: (r) => r.email ?? '' },
    gender: { label: 'Gender', value: (r) => r.gender ?? '' },
    address: { label: 'Address', value: (r) => r.address ?? '' },
    location: { label: 'Location', value: (r) => r.location ?? '' },
    region: { label: 'Region', value: (r) => r.region ?? '' },
    country: { label: 'Country', value: (r) => r.country ?? '' },
    number_of_farm: { label: 'Number of farms', value: (r) => r.number_of_farm },
    total_farm_size: { label: 'Total farm size (sqm)', value: (r) => Math.round(Number(r.total_farm_size) * 10_000) / 10_000 },
    status: { label: 'Status', value: (r) => (r.number_of_farm > 0 ? 'Mapped' : 'Unmapped') },
    created_at: { label: 'Created at', value: (r) => iso(r.created_at) },
  },
  aliases: { farmer_name: NAME_ALIASES.farmer_name },
  filters: farmersQuery.pick({ search: true, is_mapped: true, region: true }).strict(),
  batches: async function* (deps, actor, f) {
    const tenantId = actor.role === 'super_admin' ? null : actor.tenantId;
    for (let offset = 0; ; offset += BATCH) {
      const { rows } = await withScope(deps.db, scopeOf(actor), (tx) =>
        listFarmers(tx, tenantId, { search: f.search, isMapped: f.is_mapped, region: f.region }, BATCH, offset),
      );
      if (rows.length === 0) return;
      yield rows;
      if (rows.length < BATCH) return;
    }
  },
});
