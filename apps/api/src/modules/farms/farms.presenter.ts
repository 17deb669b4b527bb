// Farm row → API shape (an explicit whitelist): area in sqm and hectares, the mapping record with hh:mm:ss,
// signed snapshot URLs, and the overlapping_farms reference as a full URL.
import type { Farm } from '@farmland/contracts';
import type { Deps } from '../../context.js';
import { fileUrl } from '../files/files.service.js';
import type { FarmRow } from './farms.queries.js';

/** Seconds → hh:mm:ss (hours may exceed 24). */
export function formatDuration(seconds: number | null): string | null {
  if (seconds === null || seconds === undefined) return null;
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}

/** hh:mm:ss → seconds. */
export function parseDuration(text: string): number {
  const [h, m, s] = text.split(':').map(Number);
  return (h ?? 0) * 3600 + (m ?? 0) * 60 + (s ?? 0);
}

const iso = (d: Date | string) => new Date(d).toISOString();
const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

export function overlappingUrl(deps: Deps, farmId: string): string {
  return `${deps.config.publicUrl}/api/farms/${farmId}/overlapping/`;
}

/** `tenantName`: the reader is provider staff, who see every tenant's farms and need to know whose each is. */
export function presentFarm(deps: Deps, r: FarmRow, opts: { tenantName?: boolean } = {}): Farm {
  const area = Number(r.area_sqm);
  const exterior = r.geojson.coordinates[0] ?? [];
  return {
    id: r.id,
    name: r.name,
    location: r.location,
    address: r.address,
    farmer: r.farmer_name,
    farmer_id: r.farmer_id,
    farmer_folio_id: r.folio_id,
    coordinates: exterior,
    polygon: { type: 'Polygon', coordinates: r.geojson.coordinates },
    area: round(area, 2),
    hectare: round(area / 10_000, 4),
    operational_area: r.operational_area_name,
    operational_area_id: r.operational_area_id,
    operational_area_name: r.operational_area_name,
    is_overlapping: r.is_overlapping,
    overlap_group_id: r.overlap_group_id,
    overlapping_farms: r.is_overlapping ? overlappingUrl(deps, r.id) : null,
    flag: r.flag,
    snapshots: r.snapshot_ids.map((id) => fileUrl(deps, id)).filter((u): u is string => u !== null),
    mapped_by: r.mapped_by_name || (r.mr_source === 'sdk' ? 'SDK' : null),
    mapping_record: r.mr_id
      ? {
          time_taken_to_map: formatDuration(r.mr_seconds),
          gps_device_id: r.mr_device,
          location: r.mr_location,
          region: r.mr_country,
          mapped_by: r.mr_mapped_by_name || (r.mr_source === 'sdk' ? 'SDK' : null),
          source: r.mr_source ?? 'agent',
          coordinate: r.mr_geojson?.coordinates[0] ?? [],
          capture_note: r.mr_capture_note ?? null,
          updated_at: iso(r.mr_updated_at ?? r.updated_at),
        }
      : null,
    point:
      r.point_lng !== null && r.point_lng !== undefined && r.point_lat !== null && r.point_lat !== undefined
        ? [Number(r.point_lng), Number(r.point_lat)]
        : null,
    declared_area_sqm: r.declared_area_sqm === null || r.declared_area_sqm === undefined ? null : round(Number(r.declared_area_sqm), 2),
    tenant_id: r.tenant_id,
    ...(opts.tenantName ? { tenant_name: r.tenant_name } : {}),
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}
