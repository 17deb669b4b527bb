// Farmer row → API shape (explicit whitelist), with a signed image URL and the farm totals.
import type { Farmer } from '@farmland/contracts';
import type { Deps } from '../../context.js';
import { fileUrl } from '../files/files.service.js';
import type { FarmerRow } from './farmers.queries.js';

const iso = (d: Date | string) => new Date(d).toISOString();

export function presentFarmer(deps: Deps, r: FarmerRow): Farmer {
  return {
    id: r.id,
    first_name: r.first_name,
    last_name: r.last_name,
    farmer_name: `${r.first_name} ${r.last_name}`.trim(),
    email: r.email,
    phone_number: r.phone_number,
    gender: r.gender,
    address: r.address,
    location: r.location,
    folio_id: r.folio_id,
    image: fileUrl(deps, r.image_file_id),
    region_id: r.region_id,
    region: r.region,
    country_id: r.country_id,
    country: r.country,
    number_of_farm: r.number_of_farm,
    total_farm_size: Math.round(Number(r.total_farm_size) * 10_000) / 10_000,
    is_mapped: r.number_of_farm > 0,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}
