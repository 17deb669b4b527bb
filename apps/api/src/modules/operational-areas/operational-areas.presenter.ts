// Operational-area row → API shape (explicit whitelist), with the label and address the console lists.
import type { OperationalArea } from '@farmland/contracts';
import type { AreaRow } from './operational-areas.queries.js';

const iso = (d: Date | string) => new Date(d).toISOString();

export function presentArea(r: AreaRow): OperationalArea {
  return {
    id: r.id,
    name: r.name,
    label: r.name,
    address: `${r.city}, ${r.country}`,
    city: r.city,
    city_id: r.city_id,
    country: r.country,
    region: r.region,
    region_id: r.region_id,
    coordinates: r.geojson.coordinates[0] ?? [],
    farm_count: r.farm_count,
    area_sqm: Math.round(Number(r.area_sqm) * 100) / 100,
    tenant_id: r.tenant_id,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}
