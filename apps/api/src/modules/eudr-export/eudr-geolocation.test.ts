// Issue 29, item 4: the geolocation checks of the EUDR export. A plot with a hole (refused by the EU information system)
// is left out of the default export, written with has_holes when all plots are asked for, and written as hole-free
// parts with split_holes (one polygon each; checked by PostGIS: valid, no interior ring, the same area); a plot whose coordinates have 5 decimals
// carries low_precision; the warnings reach GeoJSON, CSV and KML; a bad option is a 400 naming it.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { nigeriaSpot, insertFarmDirect, offset, square, tenantGeo, type Ring } from '../../test/geo-fixtures.js';
import { testEnv, type TestEnv } from '../../test/harness.js';

let env: TestEnv;
let holed = '';
let coarse = '';
let plain = '';
const outer: Ring = [];
const hole: Ring = [];

type Feature = { geometry: { type: string; coordinates: any }; properties: { farm_id: string; warnings: string[] } };

beforeAll(async () => {
  env = await testEnv();
  const g = await tenantGeo(env, env.fx.tenantA);
  // In the tenant's country (Nigeria): a plot elsewhere carries outside_country.
  const [lng, lat] = nigeriaSpot();
  outer.push(...square(lng, lat, 300));
  hole.push(...square(...offset(lng, lat, 100, 100), 50).reverse());
  const geo = JSON.stringify({
    type: 'Polygon',
    coordinates: [
      [...outer, outer[0]],
      [...hole, hole[0]],
    ],
  });
  const [row] = await env.sql<{ id: string }>(sql`
    INSERT INTO farms (tenant_id, farmer_id, name, geom, area_sqm)
    SELECT ${env.fx.tenantA}, ${g.farmerId}, 'Holed plot', g, ST_Area(g::geography) FROM (SELECT ST_SetSRID(ST_GeomFromGeoJSON(${geo}), 4326) AS g) s RETURNING id`);
  holed = row!.id;
  // Coordinates with 5 decimals at most (about 1 m).
  const r5 = (p: [number, number]): [number, number] => [Math.round(p[0] * 1e5) / 1e5, Math.round(p[1] * 1e5) / 1e5];
  coarse = await insertFarmDirect(env, env.fx.tenantA, g.farmerId, square(...offset(lng, lat, 1000, 0), 200).map(r5));
  plain = await insertFarmDirect(env, env.fx.tenantA, g.farmerId, square(...offset(lng, lat, 1000, 1000), 200));
});

/**
 * The reasons a plot inserted without screening gets, from the layers in use for tenant A: other test files sharing this
 * database may have loaded layers (then the plot is not yet screened against them), or none (then no forest layer).
 */
const unscreenedReasons = async (): Promise<string[]> => {
  const layers = await env.sql<{ kind: string }>(
    sql`SELECT kind::text AS kind FROM reference_layers WHERE version > 0 AND (tenant_id IS NULL OR tenant_id = ${env.fx.tenantA})`,
  );
  return [...(layers.some((l) => l.kind === 'forest_2020') ? [] : ['no_forest_layer']), ...(layers.length > 0 ? ['not_screened'] : [])];
};

const features = async (query = '') => {
  const res = await env.as('adminA').get(`/api/farms/export/eudr${query}`);
  expect(res.status, res.raw).toBe(200);
  return (JSON.parse(res.raw) as { features: Feature[] }).features;
};

describe('EUDR export: geolocation checks', () => {
  it('leaves a plot with holes out by default, and writes it with has_holes when all plots are asked for', async () => {
    const passing = await features();
    expect(passing.map((f) => f.properties.farm_id)).not.toContain(holed);
    const byId = new Map(passing.map((f) => [f.properties.farm_id, f]));
    expect(byId.get(coarse)!.properties.warnings).toEqual(['low_precision']);
    expect(byId.get(plain)!.properties.warnings).toEqual([]);
    // The plot-risk verdict rides along: a plot never screened is "review" (no forest layer, or not screened yet).
    expect(byId.get(plain)!.properties).toMatchObject({ risk: 'review', risk_reasons: await unscreenedReasons() });
    const all = await features('?plots=all');
    const h = all.find((f) => f.properties.farm_id === holed)!;
    expect(h.properties.warnings).toEqual(['has_holes']);
    expect(h.geometry.type).toBe('Polygon');
    expect(h.geometry.coordinates).toHaveLength(2);
    // Every plot left out by default carries a warning the EU system refuses (other files sharing this database may
    // add farms between the two exports, so the counts are not compared).
    const passingIds = new Set(passing.map((f) => f.properties.farm_id));
    const leftOut = all.filter((f) => !passingIds.has(f.properties.farm_id) && f.properties.warnings.length > 0);
    expect(leftOut.map((f) => f.properties.farm_id)).toContain(holed);
    for (const f of leftOut) expect(f.properties.warnings.some((w) => w === 'has_holes' || w === 'invalid_geometry')).toBe(true);
  });

  it('split_holes writes the plot as hole-free parts, each a valid polygon, covering the same area (PostGIS)', async () => {
    const parts = (await features('?split_holes=true')).filter((f) => f.properties.farm_id === holed);
    expect(parts.length).toBeGreaterThanOrEqual(2);
    for (const [i, p] of parts.entries()) {
      expect(p.geometry.type).toBe('Polygon');
      expect(p.geometry.coordinates).toHaveLength(1);
      expect(p.properties.warnings).toEqual([]);
      expect((p.properties as unknown as { part: string }).part).toBe(`${i + 1}/${parts.length}`);
    }
    const [r] = await env.sql<{ valid: boolean; holes: number; exported: number; stored: number; sym: number }>(sql`
      WITH p AS (SELECT ST_SetSRID(ST_GeomFromGeoJSON(g), 4326) AS g FROM jsonb_array_elements_text(${JSON.stringify(parts.map((x) => JSON.stringify(x.geometry)))}::jsonb) AS g),
           e AS (SELECT ST_Union(g) AS g, bool_and(ST_IsValid(g)) AS valid, max(ST_NumInteriorRings(g)) AS holes FROM p),
           f AS (SELECT geom FROM farms WHERE id = ${holed})
      SELECT e.valid, e.holes, ST_Area(e.g::geography) AS exported, ST_Area(f.geom::geography) AS stored, ST_Area(ST_SymDifference(e.g, f.geom)::geography) AS sym
        FROM e, f`);
    expect(r!.valid).toBe(true);
    expect(Number(r!.holes)).toBe(0);
    // Within the 6-decimal rounding of the written coordinates (about 0.1 m along a 1.4 km boundary).
    expect(Math.abs(Number(r!.exported) - Number(r!.stored)) / Number(r!.stored)).toBeLessThan(1e-3);
    expect(Number(r!.sym)).toBeLessThan(200);
  });

  it('carries the warnings in CSV and KML too', async () => {
    const csv = await env.as('adminA').get('/api/farms/export/eudr?format=csv&plots=all');
    expect(csv.raw.split('\n')[0]).toContain('warnings');
    const reasons = (await unscreenedReasons()).join(';');
    expect(csv.raw.split('\n').find((l) => l.startsWith(holed))).toMatch(new RegExp(`,has_holes,,review,"?${reasons}"?\\r?$`));
    expect(csv.raw.split('\n').find((l) => l.startsWith(coarse))).toMatch(new RegExp(`,low_precision,,review,"?${reasons}"?\\r?$`));
    const kml = await env.as('adminA').get('/api/farms/export/eudr?format=kml&split_holes=true');
    const placemark = kml.raw.split('<Placemark>').find((p) => p.includes(holed))!;
    expect(placemark).toContain('<Data name="part"><value>1/');
    expect(
      kml.raw
        .split('<Placemark>')
        .filter((p) => p.includes(holed))
        .every((p) => !p.includes('innerBoundaryIs')),
    ).toBe(true);
  });

  it('a bad option is a 400 naming it', async () => {
    const res = await env.as('adminA').get('/api/farms/export/eudr?plots=some');
    expect(res.status).toBe(400);
    expect(res.body.errors.plots[0]).toEqual(expect.any(String));
  });
});

// Issue 29: outside_country (lib/country-shapes.ts) and the companion CSV. Tenant A's producer country is Nigeria. A plot
// near Abeokuta (3.4° to 3.8° E, 7.0° to 7.4° N) written with latitude and longitude swapped lands in the Gulf of
// Guinea, about 60 km off the Nigerian coast.
describe('EUDR export: outside_country and the companion CSV', () => {
  let swapped = '';
  let home = '';
  beforeAll(async () => {
    const g = await tenantGeo(env, env.fx.tenantA);
    const [x, y] = [3.4 + Math.random() * 0.4, 7.0 + Math.random() * 0.4];
    swapped = await insertFarmDirect(env, env.fx.tenantA, g.farmerId, square(y, x, 150));
    home = await insertFarmDirect(env, env.fx.tenantA, g.farmerId, square(x, y, 150));
    const [c] = await env.sql<{ iso2: string }>(sql`
      SELECT c.iso2 FROM farms f JOIN farmers fr ON fr.id = f.farmer_id JOIN tenants t ON t.id = f.tenant_id
        JOIN countries c ON c.id = coalesce(fr.country_id, t.country_id) WHERE f.id = ${swapped}`);
    expect(c!.iso2).toBe('NG');
  });

  it('flags the plot with swapped coordinates, not the one in its country, and lets it through (not blocking)', async () => {
    const byId = new Map((await features()).map((f) => [f.properties.farm_id, f]));
    expect(byId.get(swapped)!.properties.warnings).toContain('outside_country');
    expect(byId.get(home)!.properties.warnings).not.toContain('outside_country');
  });

  it('verdicts=companion leaves the verdicts out of the file; file=companion lists them for the same features', async () => {
    const geo = await features('?verdicts=companion');
    expect(geo.length).toBeGreaterThan(0);
    for (const f of geo) for (const k of ['warnings', 'risk', 'risk_reasons']) expect(f.properties).not.toHaveProperty(k);
    const res = await env.as('adminA').get('/api/farms/export/eudr?verdicts=companion&file=companion');
    expect(res.status, res.raw).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(String(res.headers['content-disposition'])).toContain('farms-eudr-verdicts.csv');
    const lines = res.raw.split(/\r?\n/).filter((l) => l !== '');
    expect(lines[0]).toBe('farm_id,farm_name,part,warnings,risk,risk_reasons');
    // One line per feature, in the same order (other files may add farms between the two requests: compare up to the
    // shorter list of the ids both hold).
    const ids = lines.slice(1).map((l) => l.slice(0, 36));
    const both = new Set(ids.filter((id) => geo.some((f) => f.properties.farm_id === id)));
    expect(ids.filter((id) => both.has(id))).toEqual(geo.map((f) => f.properties.farm_id).filter((id) => both.has(id)));
    expect(lines.find((l) => l.startsWith(swapped))).toMatch(/,outside_country,review,/);
    // The CSV and KML without the verdict columns.
    const csv = await env.as('adminA').get('/api/farms/export/eudr?format=csv&verdicts=companion');
    expect(csv.raw.split(/\r?\n/)[0]).toBe('farm_id,farm_name,farmer,area_ha,country,geometry_type,geometry,part');
    const kml = await env.as('adminA').get('/api/farms/export/eudr?format=kml&verdicts=companion');
    expect(kml.raw).not.toContain('<Data name="warnings">');
    expect(kml.raw).toContain(swapped);
  });

  it("another tenant's companion CSV holds none of tenant A's plots", async () => {
    const res = await env.as('adminB').get('/api/farms/export/eudr?verdicts=companion&file=companion&plots=all');
    expect(res.status, res.raw).toBe(200);
    expect(res.raw).not.toContain(swapped);
    expect(res.raw).not.toContain(home);
    expect(res.raw).not.toContain(holed);
  });

  it('a bad verdicts or file value is a 400 naming it', async () => {
    const v = await env.as('adminA').get('/api/farms/export/eudr?verdicts=inline');
    expect(v.status).toBe(400);
    expect(v.body.errors.verdicts[0]).toEqual(expect.any(String));
    const f = await env.as('adminA').get('/api/farms/export/eudr?file=zip');
    expect(f.status).toBe(400);
    expect(f.body.errors.file[0]).toEqual(expect.any(String));
  });
});
