// The basemap: the deployment's style URL (MAP_STYLE_URL, read from GET /api/config), or, when none is configured or it
// cannot be reached (no network, as on the test machines), a plain offline style: a background and the country outlines
// of Natural Earth 1:110m (world-atlas, bundled with the console). A map never shows a blank error for want of tiles.
import type { StyleSpecification } from 'maplibre-gl';
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
    return feature(topo, topo.objects.countries) as GeoJSON.FeatureCollection;
  });
  return countriesPromise;
}

/** The offline style: background, land (countries) and their outlines; no glyphs, sprites or remote tiles. */
export function offlineStyle(): Promise<StyleSpecification> {
  offlinePromise ??= worldCountries().then((countries) => {
    return {
      version: 8,
      name: 'Offline (Natural Earth 1:110m)',
      sources: { countries: { type: 'geojson', data: countries, attribution: 'Natural Earth' } },
      layers: [
        { id: 'background', type: 'background', paint: { 'background-color': '#dbe9f4' } },
        { id: 'countries-fill', type: 'fill', source: 'countries', paint: { 'fill-color': '#f4f1e8' } },
        { id: 'countries-line', type: 'line', source: 'countries', paint: { 'line-color': '#9aa5b1', 'line-width': 0.8 } },
      ],
    } satisfies StyleSpecification;
  });
  return offlinePromise;
}

export type Basemap = { style: StyleSpecification; offline: boolean };

/** The configured style when it answers within 4 s, else the offline style. */
export async function resolveBasemap(): Promise<Basemap> {
  const config = await loadConsoleConfig();
  if (config.map_style_url) {
    try {
      const res = await fetch(config.map_style_url, { signal: AbortSignal.timeout(STYLE_TIMEOUT_MS) });
      if (res.ok) return { style: (await res.json()) as StyleSpecification, offline: false };
    } catch {
      // unreachable: fall through to the offline style
    }
  }
  return { style: await offlineStyle(), offline: true };
}
