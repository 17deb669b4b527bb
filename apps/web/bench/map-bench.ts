// The 10k-farm draw benchmark's page (npm run bench:map): the console's own farm layers (components/map/farm-layers)
// on the offline style, fed N synthetic farms; window.runBench(n) resolves with the milliseconds from handing the data
// to the map until MapLibre reports "idle" (every tile built and drawn).
import { Map as MapLibreMap, setWorkerCount, setWorkerUrl } from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import 'maplibre-gl/dist/maplibre-gl.css';
import { offlineStyle } from '../src/components/map/basemap';
import { boundsOf, setFarmLayers } from '../src/components/map/farm-layers';
import { DEFAULT_CENTER, type MapCategory, type MapFeature } from '../src/components/map/map-constants';

setWorkerUrl(new URL(workerUrl, window.location.href).href);
if (new URLSearchParams(window.location.search).get('workers')) setWorkerCount(Number(new URLSearchParams(window.location.search).get('workers')));

/** Deterministic farms: irregular 8-gons of 40-120 m around the default centre, some overlapping. */
function syntheticFarms(n: number): MapFeature[] {
  let seed = 42;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const cats: MapCategory[] = ['within', 'within', 'outside', 'overlap', 'unrecognized'];
  const side = Math.ceil(Math.sqrt(n));
  const farms: MapFeature[] = [];
  for (let i = 0; i < n; i++) {
    const cx = DEFAULT_CENTER[0] + ((i % side) - side / 2) * 0.0012 + rand() * 0.0004;
    const cy = DEFAULT_CENTER[1] + (Math.floor(i / side) - side / 2) * 0.0012 + rand() * 0.0004;
    const r = (40 + rand() * 80) / 111_000;
    const ring: [number, number][] = [];
    for (let k = 0; k < 8; k++) {
      const a = (k / 8) * Math.PI * 2;
      const rr = r * (0.7 + rand() * 0.3);
      ring.push([cx + Math.cos(a) * rr, cy + Math.sin(a) * rr]);
    }
    ring.push(ring[0]!);
    farms.push({ id: `farm-${i}`, name: `Farm ${i}`, category: cats[i % cats.length]!, rings: [ring], properties: { area: 10_000 } });
  }
  return farms;
}

async function runBench(n: number, opts: { markers?: boolean } = {}): Promise<{ ms: number; features: number }> {
  const style = await offlineStyle();
  const map = new MapLibreMap({ container: 'map', style, center: DEFAULT_CENTER, zoom: 8, fadeDuration: 0 });
  await new Promise<void>((resolve) => map.once('load', () => resolve()));
  const farms = syntheticFarms(n);
  const t0 = performance.now();
  setFarmLayers(map, { kind: 'geojson', features: farms }, { markers: opts.markers ?? true });
  const b = boundsOf(farms)!;
  map.fitBounds(b, { padding: 20, duration: 0 });
  await new Promise<void>((resolve) => map.once('idle', () => resolve()));
  const ms = performance.now() - t0;
  const rendered = map.queryRenderedFeatures({ layers: ['farms-fill'] }).length;
  return { ms, features: rendered };
}

(window as unknown as { runBench: typeof runBench }).runBench = runBench;
