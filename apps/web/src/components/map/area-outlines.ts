// Operational areas drawn as outlines under the farms (issue 33, item 17): a dashed line and the area's name at its centre,
// so a reader sees which area each farm falls in. No fill, so the farms' colours stay readable. The labels are drawn
// from the browser's own fonts (the style has no glyphs URL; see basemap.ts).
import type { GeoJSONSource, Map as MapLibreMap } from 'maplibre-gl';
import type { Feature, FeatureCollection, Point, Polygon } from 'geojson';
import { FARM_LAYERS, ringCentre } from './farm-layers';

export const AREA_OUTLINE_SOURCE = 'area-outlines';
export const AREA_LABEL_SOURCE = 'area-outline-labels';
// eslint-disable-next-line i18n/no-literal-text -- MapLibre layer ids, not texts
export const AREA_OUTLINE_LAYERS = { line: 'area-outlines-line', label: 'area-outlines-label' } as const;
export const AREA_OUTLINE_COLOR = '#0b3d91';

/** An operational area to outline: its name and its ring ([lng, lat] positions). */
export type AreaOutline = { id: string; name: string; ring: ReadonlyArray<readonly [number, number]> };

function toCollections(areas: readonly AreaOutline[]): { polygons: FeatureCollection<Polygon>; labels: FeatureCollection<Point> } {
  const features: Feature<Polygon>[] = [];
  const labels: Feature<Point>[] = [];
  for (const a of areas) {
    if (a.ring.length < 3) continue;
    const ring = a.ring.map((p) => [p[0], p[1]]);
    const first = ring[0]!;
    const last = ring[ring.length - 1]!;
    if (first[0] !== last[0] || first[1] !== last[1]) ring.push([first[0]!, first[1]!]);
    features.push({ type: 'Feature', properties: { id: a.id, name: a.name }, geometry: { type: 'Polygon', coordinates: [ring] } });
    labels.push({ type: 'Feature', properties: { id: a.id, name: a.name }, geometry: { type: 'Point', coordinates: ringCentre(a.ring) } });
  }
  return { polygons: { type: 'FeatureCollection', features }, labels: { type: 'FeatureCollection', features: labels } };
}

/** Adds or replaces the outlines; they sit under the farm layers when those exist. */
export function setAreaOutlines(map: MapLibreMap, areas: readonly AreaOutline[]): void {
  const { polygons, labels } = toCollections(areas);
  const source = map.getSource<GeoJSONSource>(AREA_OUTLINE_SOURCE);
  if (source) {
    void source.setData(polygons);
    void map.getSource<GeoJSONSource>(AREA_LABEL_SOURCE)?.setData(labels);
    return;
  }
  map.addSource(AREA_OUTLINE_SOURCE, { type: 'geojson', data: polygons });
  map.addSource(AREA_LABEL_SOURCE, { type: 'geojson', data: labels });
  const before = map.getLayer(FARM_LAYERS.fill) ? FARM_LAYERS.fill : undefined;
  map.addLayer(
    {
      id: AREA_OUTLINE_LAYERS.line,
      type: 'line',
      source: AREA_OUTLINE_SOURCE,
      paint: { 'line-color': AREA_OUTLINE_COLOR, 'line-width': ['interpolate', ['linear'], ['zoom'], 6, 1.2, 14, 2.5], 'line-dasharray': [3, 2] },
    },
    before,
  );
  map.addLayer(
    {
      id: AREA_OUTLINE_LAYERS.label,
      type: 'symbol',
      source: AREA_LABEL_SOURCE,
      layout: {
        'text-field': ['get', 'name'],
        'text-font': ['Noto Sans Regular'],
        'text-size': 12,
        'text-max-width': 10,
        // The name sits at the area's centre; it gives way to nothing and hides no farm (farm markers are circles).
        'text-allow-overlap': false,
      },
      paint: { 'text-color': AREA_OUTLINE_COLOR, 'text-halo-color': '#ffffff', 'text-halo-width': 1.5 },
    },
    before,
  );
}
