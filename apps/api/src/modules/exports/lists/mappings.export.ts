// The Farmlands table as an export (docs/requirements.md §7: POST /base/export/mappings/): the screen's columns plus hectares, farmer id,
// coordinates and mapping details (the captures of a tenant's details page); the list's search, region and operational-area
// filters, and for provider staff tenant_id (one tenant's farms); tenant admins and provider staff.
import { z } from 'zod';
import { text } from '@farmland/contracts';
import { scopeOf } from '../../../context.js';
import { withScope } from '../../../db/client.js';
import { listFarms, type FarmRow } from '../../farms/farms.queries.js';
import { defineExport } from '../exports.define.js';

const BATCH = 1000;
const iso = (d: Date | string) => (d instanceof Date ? d.toISOString() : new Date(d).toISOString());
const seconds = (s: number | null) =>
  s === null
    ? ''
    : `${String(Math.floor(s / 3600)).padStart(2, '0')}:${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;

const filters = z
  .object({
    search: text().trim().max(200).optional(),
    region: text().trim().max(120).optional(),
    operational_area: z.uuid().optional(),
    /** Provider staff: one tenant's farms. A tenant admin naming another tenant gets an empty file (never its farms). */
    tenant_id: z.uuid().optional(),
  })
  .strict();

export const mappingsExport = defineExport<FarmRow, z.infer<typeof filters>>({
  name: 'mappings',
  subject: 'the farmlands',
  action: 'mappings',
  columns: {
    id: { label: 'Farm id', value: (r) => r.id },
    tenant_id: { label: 'Tenant id', value: (r) => r.tenant_id },
    tenant: { label: 'Tenant', value: (r) => r.tenant_name ?? '' },
    name: { label: 'Farm name', value: (r) => r.name },
    farmer: { label: 'Farmer', value: (r) => r.farmer_name },
    farmer_folio_id: { label: "Farmer's id", value: (r) => r.folio_id },
    area: { label: 'Area (sqm)', value: (r) => Math.round(r.area_sqm * 100) / 100 },
    hectare: { label: 'Hectares', value: (r) => Math.round(r.area_sqm / 100) / 100 },
    operational_area: { label: 'Operational area', value: (r) => r.operational_area_name ?? '' },
    status: { label: 'Status', value: (r) => (r.is_overlapping ? 'Overlap' : 'Mapped') },
    mapped_by: { label: 'Mapped by', value: (r) => r.mr_mapped_by_name ?? r.mapped_by_name ?? '' },
    time_taken_to_map: { label: 'Time taken to map', value: (r) => seconds(r.mr_seconds) },
    gps_device_id: { label: 'GPS device id', value: (r) => r.mr_device ?? '' },
    location: { label: 'Location', value: (r) => r.mr_location ?? r.location ?? '' },
    region: { label: 'Region', value: (r) => r.mr_country ?? '' },
    coordinates: { label: 'Coordinates', value: (r) => JSON.stringify(r.geojson.coordinates[0] ?? []) },
    updated_at: { label: 'Updated at', value: (r) => iso(r.updated_at) },
  },
  filters,
  batches: async function* (deps, actor, f) {
    if (actor.role !== 'super_admin' && f.tenant_id && f.tenant_id !== actor.tenantId) return;
    const tenantId = actor.role === 'super_admin' ? (f.tenant_id ?? null) : actor.tenantId;
    for (let offset = 0; ; offset += BATCH) {
      const { rows } = await withScope(deps.db, scopeOf(actor), (tx) =>
        listFarms(tx, tenantId, { search: f.search, region: f.region, operationalAreaId: f.operational_area }, BATCH, offset),
      );
      if (rows.length === 0) return;
      yield rows;
      if (rows.length < BATCH) return;
    }
  },
});
