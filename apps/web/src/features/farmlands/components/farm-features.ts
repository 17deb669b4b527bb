// Farms → map features (the shared farmToFeature, and the map collection's features), so the registry map reads like
// the analysis map.
import { farmCategory, farmToFeature } from '../../../components/map/farm-feature';
import type { MapFeature } from '../../../components/map/map-constants';
import type { FarmCollection } from '../api/get-farms-map';

export { farmCategory, farmToFeature };

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
