// The farm layers, without React: polygons (fill + outline) and one marker per farm, coloured by category, from GeoJSON
// or from the API's vector tiles. The map component and the 10k-farm benchmark (apps/web/bench) share this code.
import type { FilterSpecification, GeoJSONSource, Map as MapLibreMap, ExpressionSpecification } from 'maplibre-gl';
import type { Feature, FeatureCollection, Point, Polygon } from 'geojson';
import { CATEGORY_COLORS, type MapFeature } from './map-constants';

export const FARM_SOURCE = 'farms';
export const FARM_POINT_SOURCE = 'farm-points';
export const FARM_LAYERS = { fill: 'farms-fill', line: 'farms-line', markers: 'farms-markers' } as const;
/** The vector tile's layer names (GET /farms/tiles/{z}/{x}/{y}.mvt). */
export const TILE_LAYERS = { polygons: 'farms', points: 'farm_points' } as const;

const colorByCategory: ExpressionSpecification = [
  'match',
  ['get', 'category'],
  'within',
  CATEGORY_COLORS.within,
  'outside',
  CATEGORY_COLORS.outside,
  'overlap',
  CATEGORY_COLORS.overlap,
  'unrecognized',
  CATEGORY_COLORS.unrecognized,
  '#555555',
];

/** The centre of a ring's vertices (the closing vertex counted once): cheap, and inside for the convex shapes farms are. */
export function ringCentre(ring: ReadonlyArray<readonly [number, number]>): [number, number] {
  const n = ring.length > 1 && ring[0]![0] === ring[ring.length - 1]![0] && ring[0]![1] === ring[ring.length - 1]![1] ? ring.length - 1 : ring.length;
  let x = 0;
  let y = 0;
  for (let i = 0; i < n; i++) {
    x += ring[i]![0];
    y += ring[i]![1];
  }
  return n ? [x / n, y / n] : [0, 0];
}

export function toGeoJson(features: readonly MapFeature[]): { polygons: FeatureCollection<Polygon>; points: FeatureCollection<Point> } {
  const polygons: Feature<Polygon>[] = [];
  const points: Feature<Point>[] = [];
  for (const f of features) {
    if (!f.rings.length || !f.rings[0]!.length) continue;
    const properties = { ...f.properties, id: f.id, name: f.name, category: f.category };
    polygons.push({ type: 'Feature', properties, geometry: { type: 'Polygon', coordinates: f.rings as unknown as number[][][] } });
    points.push({ type: 'Feature', properties, geometry: { type: 'Point', coordinates: ringCentre(f.rings[0]!) } });
  }
  return { polygons: { type: 'FeatureCollection', features: polygons }, points: { type: 'FeatureCollection', features: points } };
}

/** [minLng, minLat, maxLng, maxLat] of every ring, or null when there is nothing. */
export function boundsOf(features: readonly MapFeature[]): [number, number, number, number] | null {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const f of features) {
    for (const [x, y] of f.rings[0] ?? []) {
      if (x < minX) minX = x;
      if (y < minY) minY = y;
      if (x > maxX) maxX = x;
      if (y > maxY) maxY = y;
    }
  }
  return Number.isFinite(minX) ? [minX, minY, maxX, maxY] : null;
}

const tileUrls = new WeakMap<MapLibreMap, string>();

export type FarmLayerSource = { kind: 'geojson'; features: readonly MapFeature[] } | { kind: 'tiles'; url: string };

function addLayers(map: MapLibreMap, tiles: boolean, markers: boolean): void {
  const polySource = tiles ? { source: FARM_SOURCE, 'source-layer': TILE_LAYERS.polygons } : { source: FARM_SOURCE };
  const pointSource = tiles ? { source: FARM_SOURCE, 'source-layer': TILE_LAYERS.points } : { source: FARM_POINT_SOURCE };
  // The fill draws its own 1 px outline; the wider outline layer starts at zoom 13, where a farm is more than a few
  // pixels. A separate line layer at every zoom doubled the draw time of 10k farms under SwiftShader.
  map.addLayer({ id: FARM_LAYERS.fill, type: 'fill', ...polySource, paint: { 'fill-color': colorByCategory, 'fill-opacity': 0.35, 'fill-outline-color': colorByCategory } });
  map.addLayer({ id: FARM_LAYERS.line, type: 'line', ...polySource, minzoom: 13, paint: { 'line-color': colorByCategory, 'line-width': 1.5 } });
  if (markers) {
    map.addLayer({
      id: FARM_LAYERS.markers,
      type: 'circle',
      ...pointSource,
      paint: {
        'circle-color': colorByCategory,
        'circle-radius': ['interpolate', ['linear'], ['zoom'], 6, 2.5, 14, 5, 18, 8],
        'circle-stroke-color': '#ffffff',
        'circle-stroke-width': ['interpolate', ['linear'], ['zoom'], 11, 0, 13, 1.2],
      },
    });
  }
}

/** Adds (first call) or replaces (later calls) the farm layers' data. */
export function setFarmLayers(map: MapLibreMap, source: FarmLayerSource, opts: { markers?: boolean } = {}): void {
  const markers = opts.markers ?? true;
  const existing = map.getSource(FARM_SOURCE);
  // Same tiles as before: nothing to do (re-adding the source would fetch every tile again).
  if (source.kind === 'tiles' && existing && tileUrls.get(map) === source.url) return;
  const wantTiles = source.kind === 'tiles';
  const hasTiles = existing?.type === 'vector';
  if (existing && (wantTiles !== hasTiles || wantTiles)) {
    for (const id of Object.values(FARM_LAYERS)) if (map.getLayer(id)) map.removeLayer(id);
    map.removeSource(FARM_SOURCE);
    if (map.getSource(FARM_POINT_SOURCE)) map.removeSource(FARM_POINT_SOURCE);
  }
  tileUrls.delete(map);
  if (source.kind === 'tiles') {
    tileUrls.set(map, source.url);
    map.addSource(FARM_SOURCE, { type: 'vector', tiles: [source.url], minzoom: 0, maxzoom: 16, promoteId: 'id' });
    addLayers(map, true, markers);
    return;
  }
  const { polygons, points } = toGeoJson(source.features);
  const poly = map.getSource<GeoJSONSource>(FARM_SOURCE);
  if (poly) {
    poly.setData(polygons);
    map.getSource<GeoJSONSource>(FARM_POINT_SOURCE)?.setData(points);
    return;
  }
  // A smaller tile buffer than the default 128: less clipping work in the worker, no visible seams for fills.
  map.addSource(FARM_SOURCE, { type: 'geojson', data: polygons, promoteId: 'id', buffer: 32 });
  map.addSource(FARM_POINT_SOURCE, { type: 'geojson', data: points, promoteId: 'id', buffer: 32 });
  addLayers(map, false, markers);
}

/** Shows only the given categories (null: all). */
export function filterCategories(map: MapLibreMap, categories: readonly string[] | null): void {
  const filter: FilterSpecification | null = categories ? ['in', ['get', 'category'], ['literal', [...categories]]] : null;
  for (const id of Object.values(FARM_LAYERS)) if (map.getLayer(id)) map.setFilter(id, filter);
}
