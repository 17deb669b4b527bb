// Builds the offline basemap's populated places (apps/web/src/components/map/data/places.json) from Natural Earth's
// 1:10m populated places (public domain, CC0 as published in github.com/martynafford/natural-earth-geojson,
// 10m/cultural/ne_10m_populated_places_simple.7z): every place of Africa and Europe (26 W to 60 E, 36 S to 72 N) and
// every place elsewhere of 1,000,000+ people. Needs the extracted ne_10m_populated_places_simple.json (7z x …).
// Run: node apps/web/scripts/build-places.mjs path/to/ne_10m_populated_places_simple.json
// Output: a compact array [name, lng, lat, rank, kind] sorted by population (rank 1 = 1M+, 2 = 200k+, 3 = 50k+,
// 4 = smaller; kind c = national capital, a = seat of a first-level division, '' = other), positions at 3 decimals.
import fs from 'node:fs';
import path from 'node:path';

const source = process.argv[2];
if (!source) throw new Error('usage: node apps/web/scripts/build-places.mjs path/to/ne_10m_populated_places_simple.json');
const inRegion = (lng, lat) => lng >= -26 && lng <= 60 && lat >= -36 && lat <= 72;
const rank = (p) => (p >= 1_000_000 ? 1 : p >= 200_000 ? 2 : p >= 50_000 ? 3 : 4);
const kind = (cla) => (/^Admin-0 capital/.test(cla) ? 'c' : /^Admin-1 capital/.test(cla) ? 'a' : '');
const round = (v) => Math.round(v * 1000) / 1000;

const features = JSON.parse(fs.readFileSync(source, 'utf8')).features;
const picked = features
  .map((f) => ({ p: f.properties, lng: f.geometry.coordinates[0], lat: f.geometry.coordinates[1] }))
  .filter(({ p, lng, lat }) => inRegion(lng, lat) || p.pop_max >= 1_000_000)
  .sort((a, b) => b.p.pop_max - a.p.pop_max || a.p.name.localeCompare(b.p.name))
  .map(({ p, lng, lat }) => [p.name, round(lng), round(lat), rank(p.pop_max), kind(p.featurecla ?? '')]);

const out = path.resolve(import.meta.dirname, '../src/components/map/data/places.json');
fs.writeFileSync(out, JSON.stringify(picked));
console.log(`${picked.length} places, ${fs.statSync(out).size} bytes -> ${path.relative(process.cwd(), out)}`);
