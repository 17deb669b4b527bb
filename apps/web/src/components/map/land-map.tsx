// The landmap of the dashboards (docs/requirements.md §2, §9): GLOBAL colours each country by its mapped farms (Natural Earth 1:110m
// shapes, bundled, so it works offline on any basemap), with the legend 'Mapped Farmlands' and the spec's classes;
// REGIONAL shows one country's states as circles at their centroids, sized by farms (no openly licensed state boundary
// set ships in an npm package we can use; see docs/decisions/0008-custom-farm-analysis-screens-and-configurations.md). Loaded lazily with the map chunk.
import { useEffect, useRef } from 'react';
import type { ExpressionSpecification } from 'maplibre-gl';
import { worldCountries } from './basemap';
import { LANDMAP_CLASSES, LANDMAP_SCALE_STEPS, landmapScaleColor } from './map-constants';
import { useMapLibre } from './use-map';
import { t } from '../../i18n';
import { mapText as m } from './map.messages';
import './map.css';

export type CountryCount = { name: string; total: number };
export type PlaceCount = { name: string; lng: number; lat: number; total: number };

export type LandMapProps = {
  mode: 'global' | 'regional';
  /** The regional view's extent, [[west, south], [east, north]] (default: Nigeria). */
  bounds?: [[number, number], [number, number]];
  countries?: readonly CountryCount[];
  places?: readonly PlaceCount[];
  center?: [number, number];
  height?: number;
  testId?: string;
};

const norm = (s: string) => s.trim().toLowerCase();
const NIGERIA_BOUNDS: [[number, number], [number, number]] = [
  [2.67, 4.27],
  [14.68, 13.89],
];

export function LandMap({ mode, countries = [], places = [], center, bounds = NIGERIA_BOUNDS, height = 360, testId = 'landmap' }: LandMapProps) {
  const container = useRef<HTMLDivElement>(null);
  const { map } = useMapLibre(container, { center: center ?? (mode === 'global' ? [10, 15] : [8.1, 9.1]), zoom: mode === 'global' ? 0.6 : 4.6 });

  useEffect(() => {
    if (!map) return;
    let cancelled = false;
    void worldCountries().then((world) => {
      if (cancelled) return;
      for (const id of ['landmap-fill', 'landmap-line', 'landmap-places']) if (map.getLayer(id)) map.removeLayer(id);
      for (const id of ['landmap-countries', 'landmap-places']) if (map.getSource(id)) map.removeSource(id);
      if (mode === 'global') {
        const byName = new Map(countries.map((c) => [norm(c.name), c.total]));
        const data = {
          ...world,
          features: world.features.map((f) => ({ ...f, properties: { ...f.properties, total: byName.get(norm(String(f.properties?.['name'] ?? ''))) ?? 0 } })),
        };
        map.addSource('landmap-countries', { type: 'geojson', data });
        const color: ExpressionSpecification = [
          'step',
          ['get', 'total'],
          LANDMAP_CLASSES[4].color,
          1,
          LANDMAP_CLASSES[3].color,
          1_000,
          LANDMAP_CLASSES[2].color,
          2_000,
          LANDMAP_CLASSES[1].color,
          50_001,
          LANDMAP_CLASSES[0].color,
        ];
        map.addLayer({ id: 'landmap-fill', type: 'fill', source: 'landmap-countries', paint: { 'fill-color': color, 'fill-opacity': 0.9 } });
        map.addLayer({ id: 'landmap-line', type: 'line', source: 'landmap-countries', paint: { 'line-color': '#9aa5b1', 'line-width': 0.6 } });
        map.jumpTo({ center: center ?? [10, 15], zoom: 0.6 });
      } else {
        const max = Math.max(1, ...places.map((p) => p.total));
        map.addSource('landmap-places', {
          type: 'geojson',
          data: {
            type: 'FeatureCollection',
            features: places.map((p) => ({
              type: 'Feature',
              properties: { name: p.name, total: p.total },
              geometry: { type: 'Point', coordinates: [p.lng, p.lat] },
            })),
          },
        });
        map.addLayer({
          id: 'landmap-places',
          type: 'circle',
          source: 'landmap-places',
          paint: {
            // Area proportional to the count (radius ∝ √count), at least 3 px so a state with farms is always seen.
            'circle-radius': ['case', ['>', ['get', 'total'], 0], ['max', 3, ['*', 28, ['sqrt', ['/', ['get', 'total'], max]]]], 0],
            // The count's class on the 1 to 30 scale (map-constants), in thirtieths of the largest count.
            'circle-color': [
              'step',
              ['ceil', ['*', LANDMAP_SCALE_STEPS, ['/', ['get', 'total'], max]]],
              landmapScaleColor(1),
              ...Array.from({ length: LANDMAP_SCALE_STEPS - 1 }, (_, i) => [i + 2, landmapScaleColor(i + 2)] as const).flat(),
            ] as unknown as ExpressionSpecification,
            'circle-opacity': 0.8,
            'circle-stroke-color': '#ffffff',
            'circle-stroke-width': 1,
          },
        });
        const root = container.current;
        if (root) root.dataset['max'] = String(max);
        if (center) map.jumpTo({ center, zoom: 4.6 });
        else map.fitBounds(bounds, { padding: 16, duration: 0 });
      }
      const root = container.current;
      if (root) root.dataset['shapes'] = String(mode === 'global' ? countries.filter((c) => c.total > 0).length : places.filter((p) => p.total > 0).length);
    });
    return () => {
      cancelled = true;
    };
  }, [map, mode, countries, places, center, bounds]);

  return (
    <div className="map-frame" style={{ height }}>
      <div
        ref={container}
        data-testid={testId}
        data-ready={map ? 'true' : 'false'}
        role="region"
        aria-label={mode === 'global' ? t(m.byCountry) : t(m.byState)}
        className="map-canvas"
      />
    </div>
  );
}
