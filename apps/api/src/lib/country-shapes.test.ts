// Issue 29, outside_country: the country test (lib/country-shapes.ts, its own TopoJSON decoding and a local planar
// distance) against GDAL and PostGIS. GDAL's TopoJSON driver reads the same world-atlas file independently; PostGIS
// then says, for random points around each country, whether the point is in the country or within 5 km of it
// (ST_Intersects, ST_DWithin on the geography, the WGS84 spheroid). Points within 100 m of the 5 km line are left out
// (the two distances differ by far less). Both engines.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { testEnv, type TestEnv } from '../test/harness.js';
import { hasOgr2ogr } from '../ingest/crs-gdal.js';
import { countryCode, outsideCountry, OUTSIDE_COUNTRY_TOLERANCE_M } from './country-shapes.js';

type Feature = { properties: { id?: string; name: string }; geometry: unknown };

/** A small seeded generator (mulberry32): the same points on every run. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe.skipIf(!hasOgr2ogr())('outside_country against GDAL and PostGIS', () => {
  let env: TestEnv;
  let features: Feature[] = [];

  beforeAll(async () => {
    env = await testEnv();
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'countries-')), 'countries.geojson');
    const src = createRequire(import.meta.url).resolve('world-atlas/countries-50m.json');
    execFileSync('ogr2ogr', ['-f', 'GeoJSON', out, src, 'countries']);
    features = (JSON.parse(fs.readFileSync(out, 'utf8')) as { features: Feature[] }).features;
  });

  it('reads declared countries as alpha-2, alpha-3, numeric or name', () => {
    expect(['CI', 'civ', '384', "Côte d'Ivoire", ' ci '].map(countryCode)).toEqual(['CI', 'CI', 'CI', 'CI', 'CI']);
    expect(countryCode('Atlantis')).toBeNull();
    expect(countryCode(566)).toBe('NG');
  });

  // Cocoa, coffee, palm oil, rubber and soy producers, a country of islands, and French Guiana (part of France's shape).
  const CHECKED: Array<[string, string]> = [
    ['CI', '384'],
    ['GH', '288'],
    ['NG', '566'],
    ['CM', '120'],
    ['BR', '076'],
    ['CO', '170'],
    ['ID', '360'],
    ['GF', '250'],
  ];

  it.each(CHECKED)('agrees with PostGIS around %s', async (alpha2, numeric) => {
    const shape = features.filter((f) => Number(f.properties.id) === Number(numeric));
    expect(shape.length).toBeGreaterThan(0);
    const geo = JSON.stringify({ type: 'GeometryCollection', geometries: shape.map((f) => f.geometry) });
    // Points around the country's shape (French Guiana: around Guiana only, not the whole of France).
    const [box] = await env.sql<{ x0: number; y0: number; x1: number; y1: number }>(sql`
      SELECT ST_XMin(b) AS x0, ST_YMin(b) AS y0, ST_XMax(b) AS x1, ST_YMax(b) AS y1
        FROM (SELECT ${alpha2 === 'GF' ? sql`ST_MakeEnvelope(-55, 2, -51, 6, 4326)` : sql`ST_Envelope(ST_SetSRID(ST_GeomFromGeoJSON(${geo}), 4326))`} AS b) s`);
    const rnd = random(Number(numeric));
    const pad = 0.3;
    const points: Array<[number, number]> = [];
    for (let i = 0; i < 300; i++) points.push([box!.x0 - pad + rnd() * (box!.x1 - box!.x0 + 2 * pad), box!.y0 - pad + rnd() * (box!.y1 - box!.y0 + 2 * pad)]);
    const rows = await env.sql<{ i: number; ok: boolean; d: number }>(sql`
      WITH c AS (SELECT ST_MakeValid(ST_CollectionExtract(ST_SetSRID(ST_GeomFromGeoJSON(${geo}), 4326), 3)) AS g),
           p AS (SELECT (v.ord - 1)::int AS i, ST_SetSRID(ST_MakePoint((v.val->>0)::float8, (v.val->>1)::float8), 4326) AS p
                   FROM jsonb_array_elements(${JSON.stringify(points)}::jsonb) WITH ORDINALITY AS v(val, ord))
      SELECT p.i, ST_Intersects(c.g, p.p) OR ST_DWithin(c.g::geography, p.p::geography, ${OUTSIDE_COUNTRY_TOLERANCE_M}) AS ok,
             ST_Distance(c.g::geography, p.p::geography)::float8 AS d
        FROM c, p ORDER BY p.i`);
    let compared = 0;
    let nearBorder = 0;
    let outside = 0;
    for (const r of rows) {
      if (Math.abs(Number(r.d) - OUTSIDE_COUNTRY_TOLERANCE_M) < 100) continue;
      compared++;
      if (Number(r.d) > 0 && Number(r.d) < OUTSIDE_COUNTRY_TOLERANCE_M) nearBorder++;
      if (!r.ok) outside++;
      expect(outsideCountry(alpha2, [points[r.i]!]), `${alpha2} ${points[r.i]!.join(',')} at ${Number(r.d).toFixed(0)} m`).toBe(!r.ok);
    }
    expect(compared).toBeGreaterThan(250);
    expect(outside).toBeGreaterThan(0);
    expect(outside).toBeLessThan(compared);
    // A few points fall outside the shape but within the tolerance (the border band): not flagged.
    if (alpha2 !== 'GF') expect(nearBorder).toBeGreaterThan(0);
  });

  it('a plot is not outside when any of its positions is in the country or near it', () => {
    // A line of positions from the Atlantic (swapped coordinates of an Ivorian plot) to inland Côte d'Ivoire.
    expect(outsideCountry('CI', [[7.5, -5.5]])).toBe(true);
    expect(
      outsideCountry('CI', [
        [7.5, -5.5],
        [-5.5, 7.5],
      ]),
    ).toBe(false);
    expect(outsideCountry('BV', [[0, 0]])).toBeNull();
  });
});
