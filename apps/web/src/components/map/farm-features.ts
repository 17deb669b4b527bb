// A farm collection (GET /farms/?all=true) → map features, with the shared farmToFeature and farmCategory
// (./farm-feature.ts), so the registry map reads like the analysis map. Used by the tenant's and the provider's Farmlands.
import type { farmFeatureCollection } from '@farmland/contracts';
import type { z } from 'zod';
import { farmCategory, farmToFeature } from './farm-feature';
import type { MapFeature } from './map-constants';

type FarmCollection = z.output<typeof farmFeatureCollection>;

export { farmCategory, farmToFeature };

export function collectionToFeatures(fc: FarmCollection | undefined): MapFeature[] {
  if (!fc) return [];
  return fc.features.map((f) => ({
    id: f.id,
    name: f.properties.name,
    category: farmCategory({ is_overlapping: f.properties.is_overlapping, operational_area_id: f.properties.operational_area_id }),
    rings: f.geometry.coordinates,
    properties: { farmer: f.properties.farmer, area: f.properties.area, is_overlapping: f.properties.is_overlapping, verdict: f.properties.verdict ?? null },
  }));
}
