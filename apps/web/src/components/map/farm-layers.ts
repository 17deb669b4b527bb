// The farm layers, without React: polygons (fill + outline) and one marker per farm, coloured by category, from GeoJSON
// or from the API's vector tiles. Tiles up to zoom 14 carry clusters instead (one point per grid cell with its farm
// count): circles sized by count and coloured by the dominant category, and a cluster of one farm drawn as that farm's
// marker. The map component and the 10k-farm benchmark (apps/web/bench) share this code.
import type { CircleLayerSpecification, GeoJSONSource, Map as MapLibreMap, ExpressionSpecification } from 'maplibre-gl';
import type { Feature, FeatureCollection, Point, Polygon } from 'geojson';
import { CATEGORY_COLORS, VERDICT_COLORS, type MapColorBy, type MapFeature } from './map-constants';

export const FARM_SOURCE = 'farms';
export const FARM_POINT_SOURCE = 'farm-points';
export const FARM_LAYERS = {
  fill: 'farms-fill',
  line: 'farms-line',
  markers: 'farms-markers',
  clusters: 'farms-clusters',
  singles: 'farms-singles',
} as const;
/** The vector tile's layer names (GET /farms/tiles/{z}/{x}/{y}.mvt). */
export const TILE_LAYERS = { polygons: 'farms', points: 'farm_points', clusters: 'farm_clusters' } as const;
/** The categories a cluster counts (its properties of the same names). */
const CLUSTER_CATEGORIES = ['overlap', 'unrecognized', 'within', 'outside'] as const;
const isCluster: ExpressionSpecification = ['>', ['get', 'count'], 1];
const isSingle: ExpressionSpecification = ['==', ['get', 'count'], 1];

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

/** Issue 29: by the farm's EUDR verdict (property "verdict": tiles, the registry's GeoJSON, an analysis row's risk_level). */
const colorByVerdict: ExpressionSpecification = [
  'match',
  ['coalesce', ['get', 'verdict'], 'none'],
  'low',
  VERDICT_COLORS.low,
  'review',
  VERDICT_COLORS.review,
  'high',
  VERDICT_COLORS.high,
  VERDICT_COLORS.none,
];

/** Each map's colouring (category unless asked), read again whenever the layers are re-created. */
const colorModes = new WeakMap<MapLibreMap, MapColorBy>();
const farmColor = (map: MapLibreMap) => (colorModes.get(map) === 'verdict' ? colorByVerdict : colorByCategory);
/** A cluster of several farms has no one verdict (the rollup counts categories): grey while colouring by verdict. */
const clusterColor = (map: MapLibreMap) => (colorModes.get(map) === 'verdict' ? VERDICT_COLORS.none : colorByCategory);

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
  const color = farmColor(map);
  const polySource = tiles ? { source: FARM_SOURCE, 'source-layer': TILE_LAYERS.polygons } : { source: FARM_SOURCE };
  const pointSource = tiles ? { source: FARM_SOURCE, 'source-layer': TILE_LAYERS.points } : { source: FARM_POINT_SOURCE };
  // The fill draws its own 1 px outline; the wider outline layer starts at zoom 13, where a farm is more than a few
  // pixels. A separate line layer at every zoom doubled the draw time of 10k farms under SwiftShader.
  map.addLayer({
    id: FARM_LAYERS.fill,
    type: 'fill',
    ...polySource,
    paint: { 'fill-color': color, 'fill-opacity': 0.35, 'fill-outline-color': color },
  });
  map.addLayer({ id: FARM_LAYERS.line, type: 'line', ...polySource, minzoom: 13, paint: { 'line-color': color, 'line-width': 1.5 } });
  const markerPaint: CircleLayerSpecification['paint'] = {
    'circle-color': color,
    'circle-radius': ['interpolate', ['linear'], ['zoom'], 6, 2.5, 14, 5, 18, 8],
    'circle-stroke-color': '#ffffff',
    'circle-stroke-width': ['interpolate', ['linear'], ['zoom'], 11, 0, 13, 1.2],
  };
  if (markers) map.addLayer({ id: FARM_LAYERS.markers, type: 'circle', ...pointSource, paint: markerPaint });
  if (!tiles) return;
  // Clusters: the radius grows with the logarithm of the count (2 farms 5 px, 100 farms 8 px, 10,000 farms 12 px): the
  // cells are 16 px apart on screen, and a linear scale would cover the map with the densest ones. No count label: the
  // offline style has no glyphs (a click zooms in instead, and the popup of a farm works from a cluster of one).
  map.addLayer({
    id: FARM_LAYERS.clusters,
    type: 'circle',
    source: FARM_SOURCE,
    'source-layer': TILE_LAYERS.clusters,
    filter: isCluster,
    paint: {
      'circle-color': clusterColor(map),
      'circle-opacity': 0.75,
      'circle-radius': ['interpolate', ['linear'], ['ln', ['get', 'count']], 0.69, 5, 4.6, 8, 9.2, 12, 10.9, 13],
      'circle-stroke-color': '#ffffff',
      'circle-stroke-width': 1,
    },
  });
  if (markers)
    map.addLayer({ id: FARM_LAYERS.singles, type: 'circle', source: FARM_SOURCE, 'source-layer': TILE_LAYERS.clusters, filter: isSingle, paint: markerPaint });
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
    void poly.setData(polygons);
    void map.getSource<GeoJSONSource>(FARM_POINT_SOURCE)?.setData(points);
    return;
  }
  // A smaller tile buffer than the default 128: less clipping work in the worker, no visible seams for fills.
  map.addSource(FARM_SOURCE, { type: 'geojson', data: polygons, promoteId: 'id', buffer: 32 });
  map.addSource(FARM_POINT_SOURCE, { type: 'geojson', data: points, promoteId: 'id', buffer: 32 });
  addLayers(map, false, markers);
}

/** Colours the farms by category (the default) or by EUDR verdict; layers added later follow the same choice. */
export function setFarmColors(map: MapLibreMap, colorBy: MapColorBy): void {
  colorModes.set(map, colorBy);
  const color = farmColor(map);
  if (map.getLayer(FARM_LAYERS.fill)) {
    map.setPaintProperty(FARM_LAYERS.fill, 'fill-color', color);
    map.setPaintProperty(FARM_LAYERS.fill, 'fill-outline-color', color);
  }
  if (map.getLayer(FARM_LAYERS.line)) map.setPaintProperty(FARM_LAYERS.line, 'line-color', color);
  for (const id of [FARM_LAYERS.markers, FARM_LAYERS.singles]) if (map.getLayer(id)) map.setPaintProperty(id, 'circle-color', color);
  if (map.getLayer(FARM_LAYERS.clusters)) map.setPaintProperty(FARM_LAYERS.clusters, 'circle-color', clusterColor(map));
}

/** Shows only the given categories (null: all). A cluster stays while it counts a farm of one of them. */
export function filterCategories(map: MapLibreMap, categories: readonly string[] | null): void {
  const filter: ExpressionSpecification | null = categories ? ['in', ['get', 'category'], ['literal', [...categories]]] : null;
  for (const id of [FARM_LAYERS.fill, FARM_LAYERS.line, FARM_LAYERS.markers]) if (map.getLayer(id)) map.setFilter(id, filter);
  const counted: ExpressionSpecification | null = categories
    ? ['any', ...CLUSTER_CATEGORIES.filter((c) => categories.includes(c)).map((c): ExpressionSpecification => ['>', ['get', c], 0])]
    : null;
  if (map.getLayer(FARM_LAYERS.clusters)) map.setFilter(FARM_LAYERS.clusters, counted ? ['all', isCluster, counted] : isCluster);
  if (map.getLayer(FARM_LAYERS.singles)) map.setFilter(FARM_LAYERS.singles, filter ? ['all', isSingle, filter] : isSingle);
}

/** Whether a rendered feature is a cluster of several farms (a click zooms in on it). */
export const isClusterFeature = (layerId: string | undefined) => layerId === FARM_LAYERS.clusters;
