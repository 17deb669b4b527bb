// Builds the offline basemap's lakes (apps/web/src/components/map/data/lakes.json) from Natural Earth's 1:10m lakes
// (public domain, CC0 as published in github.com/martynafford/natural-earth-geojson, 10m/physical/ne_10m_lakes.7z):
// the lakes of Africa and Europe (26 W to 60 E, 36 S to 72 N), simplified by GDAL (`ogr2ogr -simplify 0.02`, about 2 km),
// 3 decimals, lakes smaller than 0.01 square degrees (about 100 km²) left out. Needs gdal-bin and the extracted
// ne_10m_lakes.json (7z x ne_10m_lakes.7z). Run: node apps/web/scripts/build-lakes.mjs path/to/ne_10m_lakes.json
// Output: one array per polygon, [scalerank, name, ring0, ring1, …], each ring flat [lng0, lat0, lng1, lat1, …].
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const source = process.argv[2];
if (!source) throw new Error('usage: node apps/web/scripts/build-lakes.mjs path/to/ne_10m_lakes.json');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lakes-'));
const simple = path.join(tmp, 'simple.geojson');
execFileSync('ogr2ogr', [
  '-f',
  'GeoJSON',
  '-spat',
  '-26',
  '-36',
  '60',
  '72',
  '-simplify',
  '0.02',
  '-lco',
  'COORDINATE_PRECISION=3',
  '-lco',
  'RFC7946=YES',
  simple,
  source,
]);
const out = JSON.parse(fs.readFileSync(simple, 'utf8'));
const ringArea = (r) => {
  let a = 0;
  for (let i = 0, j = r.length - 1; i < r.length; j = i++) a += r[j][0] * r[i][1] - r[i][0] * r[j][1];
  return Math.abs(a / 2);
};
const rows = [];
for (const f of out.features) {
  const g = f.geometry;
  const polys = g?.type === 'Polygon' ? [g.coordinates] : g?.type === 'MultiPolygon' ? g.coordinates : [];
  for (const p of polys) {
    if (!p[0] || p[0].length < 4 || ringArea(p[0]) < 0.01) continue;
    const rings = p.filter((r) => r.length >= 4).map((r) => r.flat());
    rows.push([f.properties.scalerank ?? 10, f.properties.name ?? '', ...rings]);
  }
}
rows.sort((a, b) => a[0] - b[0]);
const file = path.resolve(import.meta.dirname, '../src/components/map/data/lakes.json');
fs.writeFileSync(file, JSON.stringify(rows));
fs.rmSync(tmp, { recursive: true });
console.log(`${rows.length} lake polygons, ${fs.statSync(file).size} bytes -> ${path.relative(process.cwd(), file)}`);
