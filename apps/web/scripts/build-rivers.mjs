// Builds the offline basemap's rivers (apps/web/src/components/map/data/rivers.json) from GSHHG's river database
// (WDBII, LGPL-3+), as Debian's gmt-gshhg-high package ships it: the permanent major rivers (level 1) and additional
// major rivers (level 2) of Africa (20 W to 55 E, 36 S to 38 N), dumped by GMT (`gmt coast -M`), simplified by GDAL
// (`ogr2ogr -simplify 0.005`, about 500 m) to 3 decimals, stored as compact arrays. Needs the Debian packages gmt, gmt-gshhg-high and gdal-bin.
// Run: node apps/web/scripts/build-rivers.mjs
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const REGION = '-R-20/55/-36/38';
const text = execFileSync('gmt', ['coast', REGION, '-Dh', '-I1', '-I2', '-M'], { encoding: 'utf8', maxBuffer: 64 << 20 });

// GMT's multisegment text: a header line "> River Bin # 4683, Level 1" before each run of "lng lat" lines.
const features = [];
let level = 0;
let line = [];
const flush = () => {
  if (line.length > 1) features.push({ type: 'Feature', properties: { l: level }, geometry: { type: 'LineString', coordinates: line } });
  line = [];
};
for (const row of text.split('\n')) {
  if (row.startsWith('>')) {
    flush();
    level = Number(/Level (\d+)/.exec(row)?.[1] ?? 0);
  } else if (row.trim()) {
    const [x, y] = row.trim().split(/\s+/).map(Number);
    line.push([x, y]);
  }
}
flush();

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rivers-'));
const raw = path.join(tmp, 'raw.geojson');
const simple = path.join(tmp, 'simple.geojson');
fs.writeFileSync(raw, JSON.stringify({ type: 'FeatureCollection', features }));
execFileSync('ogr2ogr', ['-f', 'GeoJSON', '-simplify', '0.005', '-lco', 'COORDINATE_PRECISION=3', '-lco', 'RFC7946=YES', simple, raw]);
const out = JSON.parse(fs.readFileSync(simple, 'utf8'));
// Compact: one array per line, [level, lng0, lat0, lng1, lat1, …] (the map turns it back into GeoJSON).
const compact = out.features.filter((f) => f.geometry?.coordinates?.length > 1).map((f) => [f.properties.l, ...f.geometry.coordinates.flat()]);
const file = path.resolve(import.meta.dirname, '../src/components/map/data/rivers.json');
fs.writeFileSync(file, JSON.stringify(compact));
fs.rmSync(tmp, { recursive: true });
console.log(`${compact.length} river lines, ${fs.statSync(file).size} bytes -> ${path.relative(process.cwd(), file)}`);
