// The field endpoints' shapes as the app reads them. Written here because the server side (helper field-api, issue 31)
// was not in this branch: at merge, these become the zod schemas' types in @farmland/contracts (packages/contracts/src/field.ts).
import type { Farmer } from '@farmland/contracts';

export type AreaGeometry = GeoJSON.Polygon | GeoJSON.MultiPolygon;

/** GET /api/field/areas/: the operational areas the agent may download. */
export type FieldArea = { id: string; name: string };

export type BundleFarm = { id: string; name: string | null; farmer_name: string | null; geometry: AreaGeometry; area_sqm: number };

export type BundleFarmer = Pick<Farmer, 'id' | 'first_name' | 'last_name' | 'farmer_name'> & Partial<Pick<Farmer, 'phone_number' | 'folio_id' | 'gender' | 'location'>>;

export type FieldSettings = { minimum_farm_size: number; overlap_min_area_sqm: number; overlap_min_share: number };

/** GET /api/field/bundle/?area_id=: everything the checks need offline for one area. */
export type FieldBundle = {
  generated_at: string;
  area: { id: string; name: string; geometry: AreaGeometry };
  farms: BundleFarm[];
  /** True when the area holds more farms than the bundle carries (the overlap check then misses some). */
  truncated: boolean;
  farmers: BundleFarmer[];
  settings: FieldSettings;
};
