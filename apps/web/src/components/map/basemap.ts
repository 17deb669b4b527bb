// The basemap: the deployment's style URL (MAP_STYLE_URL, read from GET /api/config), or, when none is configured or it
// cannot be reached (no network, as on the test machines), the offline reference style: water, land, country borders
// and country names from Natural Earth 1:50m (world-atlas), Africa's major rivers (GSHHG, LGPL-3+: data/rivers.json),
// the lakes of Africa and Europe (Natural Earth 1:10m, public domain: data/lakes.json) and populated places with their
// names (Natural Earth 1:10m, public domain: data/places.json; see data/NOTICE.md), all bundled with the console and
// loaded only with a map.
// A map never shows a blank error for want of tiles.
//
// Labels need no glyph server: the style has no `glyphs` URL, so MapLibre (6.x) draws every label with the browser's
// own fonts (TinySDF). Nothing is fetched from outside the console.
import type { ExpressionSpecification, StyleSpecification } from 'maplibre-gl';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import type { ConsoleConfig } from '@farmland/contracts';

const STYLE_TIMEOUT_MS = 4000;
let configPromise: Promise<ConsoleConfig> | null = null;

/** GET /api/config once per page load; a failure means "no style URL". */
export function loadConsoleConfig(): Promise<ConsoleConfig> {
  configPromise ??= fetch('/api/config', { headers: { Accept: 'application/json' } })
    .then(async (res) => (res.ok ? ((await res.json()) as { data: ConsoleConfig }).data : { map_style_url: null, map_tile_threshold: 5000 }))
    .catch(() => ({ map_style_url: null, map_tile_threshold: 5000 }));
  return configPromise;
}

let offlinePromise: Promise<StyleSpecification> | null = null;
let countriesPromise: Promise<GeoJSON.FeatureCollection> | null = null;

/** Natural Earth 1:110m country polygons (properties.name), bundled: the offline style's land and the landmap's shapes. */
export function worldCountries(): Promise<GeoJSON.FeatureCollection> {
  countriesPromise ??= import('world-atlas/countries-110m.json').then((mod) => {
    const topo = mod.default as unknown as Topology<{ countries: GeometryCollection }>;
    return feature(topo, topo.objects.countries);
  });
  return countriesPromise;
}

/** Natural Earth 1:50m country polygons: the offline style's land, borders and names (a lazy chunk of its own). */
function detailedCountries(): Promise<GeoJSON.FeatureCollection> {
  return import('world-atlas/countries-50m.json').then((mod) => {
    const topo = mod.default as unknown as Topology<{ countries: GeometryCollection }>;
    return feature(topo, topo.objects.countries);
  });
}

type PlaceRow = [name: string, lng: number, lat: number, rank: number, kind: string];

/** Populated places (Natural Earth 1:10m, public domain; data/NOTICE.md): a lazy chunk of its own, as GeoJSON points. */
function populatedPlaces(): Promise<GeoJSON.FeatureCollection<GeoJSON.Point>> {
  return import('./data/places.json').then((mod) => {
    const rows = mod.default as unknown as PlaceRow[];
    return {
      type: 'FeatureCollection',
      features: rows.map(([name, lng, lat, rank, kind], i) => ({
        type: 'Feature',
        properties: { name, rank, kind, order: i },
        geometry: { type: 'Point', coordinates: [lng, lat] },
      })),
    };
  });
}

type RiverRow = number[];

/** Africa's major rivers (GSHHG WDBII levels 1 and 2, LGPL-3+; data/NOTICE.md): a lazy chunk of its own, as lines. */
function majorRivers(): Promise<GeoJSON.FeatureCollection<GeoJSON.LineString>> {
  return import('./data/rivers.json').then((mod) => {
    const rows = mod.default as unknown as RiverRow[];
    return {
      type: 'FeatureCollection',
      features: rows.map(([level, ...flat]) => {
        const coordinates: [number, number][] = [];
        for (let i = 0; i + 1 < flat.length; i += 2) coordinates.push([flat[i]!, flat[i + 1]!]);
        return { type: 'Feature', properties: { level: level ?? 1 }, geometry: { type: 'LineString', coordinates } };
      }),
    };
  });
}

type LakeRow = [rank: number, name: string, ...rings: number[][]];

/** The lakes of Africa and Europe (Natural Earth 1:10m, public domain; data/NOTICE.md): a lazy chunk of its own, as polygons. */
function lakes(): Promise<GeoJSON.FeatureCollection<GeoJSON.Polygon>> {
  return import('./data/lakes.json').then((mod) => {
    const rows = mod.default as unknown as LakeRow[];
    return {
      type: 'FeatureCollection',
      features: rows.map(([rank, name, ...rings]) => {
        const coordinates = rings.map((flat) => {
          const ring: [number, number][] = [];
          for (let i = 0; i + 1 < flat.length; i += 2) ring.push([flat[i]!, flat[i + 1]!]);
          return ring;
        });
        return { type: 'Feature', properties: { rank, name }, geometry: { type: 'Polygon', coordinates } };
      }),
    };
  });
}

/** The area-weighted centre of a ring (shoelace), in degrees: good enough to place a name. */
function ringCentroid(ring: number[][]): { x: number; y: number; area: number } {
  let a = 0;
  let x = 0;
  let y = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [x0, y0] = ring[j] as [number, number];
    const [x1, y1] = ring[i] as [number, number];
    const f = x0 * y1 - x1 * y0;
    a += f;
    x += (x0 + x1) * f;
    y += (y0 + y1) * f;
  }
  return a === 0 ? { x: ring[0]?.[0] ?? 0, y: ring[0]?.[1] ?? 0, area: 0 } : { x: x / (3 * a), y: y / (3 * a), area: Math.abs(a / 2) };
}

/** One label point per country, at the centre of its largest part, with that part's size (to show big countries first). */
export function countryLabelPoints(countries: GeoJSON.FeatureCollection): GeoJSON.FeatureCollection<GeoJSON.Point> {
  const features: GeoJSON.Feature<GeoJSON.Point>[] = [];
  for (const f of countries.features) {
    const g = f.geometry;
    const polys = g?.type === 'Polygon' ? [g.coordinates] : g?.type === 'MultiPolygon' ? g.coordinates : [];
    let best: { x: number; y: number; area: number } | null = null;
    for (const p of polys) {
      const c = ringCentroid(p[0] ?? []);
      if (!best || c.area > best.area) best = c;
    }
    const name = String(f.properties?.['name'] ?? '');
    if (best && name) features.push({ type: 'Feature', properties: { name, size: best.area }, geometry: { type: 'Point', coordinates: [best.x, best.y] } });
  }
  features.sort((a, b) => Number(b.properties?.['size']) - Number(a.properties?.['size']));
  return { type: 'FeatureCollection', features };
}

/** The font stack labels ask for; with no glyphs URL MapLibre maps it to the browser's sans-serif. */
export const LABEL_FONT = ['Noto Sans Regular'];
export const OFFLINE_STYLE_NAME = 'Reference map (offline, Natural Earth 1:50m)';

/**
 * The offline reference style, drawn for reading farms on top: pale water and land, grey country borders, and country
 * names (sorted by size, so the largest win where names collide). No glyphs, sprites or remote tiles.
 */
export function offlineStyle(): Promise<StyleSpecification> {
  offlinePromise ??= Promise.all([detailedCountries(), populatedPlaces(), majorRivers(), lakes()]).then(([countries, places, rivers, lakeShapes]) => {
    // A place shows from a zoom that depends on its size: the largest cities on a world view, towns near the farms.
    const minZoom: ExpressionSpecification = ['match', ['get', 'rank'], 1, 2, 2, 4, 3, 5.5, 7];
    return {
      version: 8,
      name: OFFLINE_STYLE_NAME,
      sources: {
        countries: { type: 'geojson', data: countries, attribution: 'Natural Earth (public domain)' },
        'country-labels': { type: 'geojson', data: countryLabelPoints(countries) },
        rivers: { type: 'geojson', data: rivers, attribution: 'Rivers: GSHHG (LGPL-3+)' },
        lakes: { type: 'geojson', data: lakeShapes },
        places: { type: 'geojson', data: places },
      },
      layers: [
        { id: 'background', type: 'background', paint: { 'background-color': '#cfe3f2' } },
        { id: 'countries-fill', type: 'fill', source: 'countries', paint: { 'fill-color': '#f5f3ec' } },
        {
          id: 'countries-line',
          type: 'line',
          source: 'countries',
          paint: { 'line-color': '#8a96a3', 'line-width': ['interpolate', ['linear'], ['zoom'], 2, 0.6, 8, 1.4], 'line-dasharray': [4, 2] },
        },
        // Lakes of 100 km² and more (243 polygons): all drawn at every zoom, in the sea's colour.
        { id: 'lakes', type: 'fill', source: 'lakes', paint: { 'fill-color': '#cfe3f2', 'fill-outline-color': '#7fb0d6' } },
        {
          id: 'rivers',
          type: 'line',
          source: 'rivers',
          // Permanent major rivers from a continental view, the other major rivers from zoom 5.
          filter: ['any', ['==', ['get', 'level'], 1], ['>=', ['zoom'], 5]],
          layout: { 'line-join': 'round', 'line-cap': 'round' },
          paint: {
            'line-color': '#7fb0d6',
            'line-width': ['interpolate', ['linear'], ['zoom'], 3, ['match', ['get', 'level'], 1, 0.9, 0.5], 10, ['match', ['get', 'level'], 1, 2.4, 1.4]],
          },
        },
        {
          id: 'places-dot',
          type: 'circle',
          source: 'places',
          filter: ['>=', ['zoom'], minZoom],
          paint: {
            'circle-radius': ['match', ['get', 'rank'], 1, 3.5, 2, 3, 2.2],
            'circle-color': '#ffffff',
            'circle-stroke-color': '#3d4852',
            'circle-stroke-width': 1.2,
          },
        },
        {
          id: 'places-label',
          type: 'symbol',
          source: 'places',
          filter: ['>=', ['zoom'], minZoom],
          layout: {
            'text-field': ['get', 'name'],
            'text-font': LABEL_FONT,
            'text-size': ['match', ['get', 'rank'], 1, 13, 2, 12, 3, 11.5, 11],
            'text-anchor': 'left',
            'text-offset': [0.6, 0],
            'text-max-width': 9,
            // Larger places first where labels collide (the rows are sorted by population).
            'symbol-sort-key': ['get', 'order'],
          },
          paint: { 'text-color': '#27313a', 'text-halo-color': '#ffffff', 'text-halo-width': 1.4 },
        },
        // Last, so country names are placed before place names (MapLibre places the top layer's symbols first).
        {
          id: 'country-labels',
          type: 'symbol',
          source: 'country-labels',
          layout: {
            'text-field': ['get', 'name'],
            'text-font': LABEL_FONT,
            'text-size': ['interpolate', ['linear'], ['zoom'], 1, 10, 6, 14],
            'text-transform': 'uppercase',
            'text-letter-spacing': 0.08,
            'text-max-width': 8,
            'symbol-sort-key': ['-', 0, ['get', 'size']],
          },
          paint: { 'text-color': '#4a5561', 'text-halo-color': '#f5f3ec', 'text-halo-width': 1.2 },
        },
      ],
    } satisfies StyleSpecification;
  });
  return offlinePromise;
}

export type Basemap = {
  style: StyleSpecification;
  offline: boolean;
  /** When a configured style answered: the offline reference style too, for the basemap switch. */
  alternative?: StyleSpecification;
};

/** The configured style when it answers within 4 s (with the offline one as the switch's alternative), else the offline style. */
export async function resolveBasemap(): Promise<Basemap> {
  const config = await loadConsoleConfig();
  if (config.map_style_url) {
    try {
      const res = await fetch(config.map_style_url, { signal: AbortSignal.timeout(STYLE_TIMEOUT_MS) });
      if (res.ok) return { style: (await res.json()) as StyleSpecification, offline: false, alternative: await offlineStyle() };
    } catch {
      // unreachable: fall through to the offline style
    }
  }
  return { style: await offlineStyle(), offline: true };
}
