// Reference-layer features drawn under the farms (EUDR evidence, GET /farms/{id}/screening/evidence/): each kind in its
// colour (map-constants.ts), a translucent fill so the farm above stays readable, and a solid edge.
import type { GeoJSONSource, Map as MapLibreMap } from 'maplibre-gl';
import type { FeatureCollection, MultiPolygon } from 'geojson';
import { FARM_LAYERS } from './farm-layers';
import { REFERENCE_KIND_COLORS } from './map-constants';

export const REFERENCE_SOURCE = 'reference-features';
export const REFERENCE_LAYERS = { fill: 'reference-features-fill', line: 'reference-features-line' } as const;

/** The evidence as the map takes it: MultiPolygons with at least the layer's kind. */
export type ReferenceOverlay = FeatureCollection<MultiPolygon, { kind: string; layer_name: string }>;

const colorByKind = ['match', ['get', 'kind'], ...Object.entries(REFERENCE_KIND_COLORS).flat(), REFERENCE_KIND_COLORS.other] as unknown as string;

/** Adds or replaces the reference features; they sit under the farm layers when those exist. */
export function setReferenceOverlay(map: MapLibreMap, data: ReferenceOverlay): void {
  const source = map.getSource<GeoJSONSource>(REFERENCE_SOURCE);
  if (source) {
    void source.setData(data);
    return;
  }
  map.addSource(REFERENCE_SOURCE, { type: 'geojson', data });
  const before = map.getLayer(FARM_LAYERS.fill) ? FARM_LAYERS.fill : undefined;
  map.addLayer({ id: REFERENCE_LAYERS.fill, type: 'fill', source: REFERENCE_SOURCE, paint: { 'fill-color': colorByKind, 'fill-opacity': 0.28 } }, before);
  map.addLayer({ id: REFERENCE_LAYERS.line, type: 'line', source: REFERENCE_SOURCE, paint: { 'line-color': colorByKind, 'line-width': 1.5 } }, before);
}
