// A registry farm as a map feature, for every screen that draws farms (Farmlands, the farmer drawer): the category
// decides the colour (overlap green, flagged orange, in an operational area purple, outside red).
import type { Farm } from '@farmland/contracts';
import type { MapCategory, MapFeature } from './map-constants';

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
    rings: f.polygon.coordinates,
    properties: { farmer: f.farmer, area: f.area, is_overlapping: f.is_overlapping, operational_area: f.operational_area_name },
  };
}
