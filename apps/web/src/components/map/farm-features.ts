// Farms → map features: the category decides the colour (overlap green, flagged orange, in an operational area purple,
// outside red), so the registry map reads like the analysis map. Shared by the tenant's and the provider's Farmlands.
import type { Farm, farmFeatureCollection } from '@farmland/contracts';
import type { z } from 'zod';
import type { MapCategory, MapFeature } from './map-constants';

type FarmCollection = z.output<typeof farmFeatureCollection>;

export function farmCategory(f: { is_overlapping: boolean; flag?: string | null; operational_area_id: string | null }): MapCategory {
  if (f.is_overlapping) return 'overlap';
  if (f.flag) return 'unrecognized';
  return f.operational_area_id ? 'within' : 'outside';
}

export function farmToFeature(f: Farm): MapFeature {
  return {
    id: f.id,
    name: f.name,
    category: farmCategory(f),
    rings: f.polygon.coordinates as MapFeature['rings'],
    properties: { farmer: f.farmer, area: f.area, is_overlapping: f.is_overlapping, operational_area: f.operational_area_name },
  };
}

export function collectionToFeatures(fc: FarmCollection | undefined): MapFeature[] {
  if (!fc) return [];
  return fc.features.map((f) => ({
    id: f.id,
    name: f.properties.name,
    category: farmCategory({ is_overlapping: f.properties.is_overlapping, operational_area_id: f.properties.operational_area_id }),
    rings: f.geometry.coordinates as MapFeature['rings'],
    properties: { farmer: f.properties.farmer, area: f.properties.area, is_overlapping: f.properties.is_overlapping },
  }));
}
