// A real, openly licensed layer (issue 29, "a real layer loads and screens"): OpenStreetMap's national parks and woods
// around the Lopé and Waka parks of Gabon (test-data/reference-layers/NOTICE.md: source, ODbL 1.0, what was kept), loaded
// through the upload route as tenant A's protected-area and forest layers. Farms placed on the real shapes (inside a
// park, across its edge, across and inside a wood, and away from both) are screened, and each figure agrees within 1e-6
// with PostGIS on the original features (ST_Area(ST_Intersection(farm, ST_Union(features))::geography)); each verdict
// follows the tree of plot-risk.ts with the default thresholds.
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestEnv } from '../../test/harness.js';
import { testEnv } from '../../test/harness.js';
import { insertFarmDirect, multipart, offset, square, tenantGeo, type Ring } from '../../test/geo-fixtures.js';

const DATA = path.resolve(import.meta.dirname, '../../../test-data/reference-layers');
const read = (file: string) => fs.readFileSync(path.join(DATA, file));

let env: TestEnv;
const layers = { parks: '', wood: '' };
const farms: Record<string, string> = {};

type Figure = { layer_id: string; overlap_sqm: number; share: number };

/** Uploads a file as a layer of tenant A and waits until it is ready (or failed). */
async function upload(file: string, kind: string, name: string): Promise<Record<string, any>> {
  const fields = {
    name,
    kind,
    reference_date: '2020-07-16',
    source: 'OpenStreetMap contributors, Overpass extract by Appsilon/mbaza (see test-data/reference-layers/NOTICE.md)',
    licence: 'ODbL-1.0',
  };
  const body = multipart(fields, [{ field: 'file', filename: file, content: read(file) }]);
  const res = await env.as('adminA').request({ method: 'POST', url: '/api/reference-layers/', payload: body.payload, headers: body.headers });
  expect(res.status, res.raw).toBe(202);
  const id = res.body.data.id as string;
  let detail: Record<string, any> = { status: 'queued' };
  for (const end = Date.now() + 120_000; Date.now() < end && !['ready', 'failed'].includes(detail['status']);) {
    await new Promise((r) => setTimeout(r, 50));
    detail = (await env.as('adminA').get(`/api/reference-layers/${id}/`)).body.data;
  }
  return detail;
}

/**
 * From PostGIS on the file's own geometry: a point inside the matching feature, and a vertex of the outline of the
 * union of all features that holds it (woods adjoin one another in OpenStreetMap: a feature's own vertex may lie inside
 * its neighbour).
 */
async function spotsOf(file: string, match: (p: Record<string, unknown>) => boolean): Promise<{ edge: [number, number]; inside: [number, number] }> {
  const features = JSON.parse(read(file).toString()).features as Array<{ properties: Record<string, unknown>; geometry: unknown }>;
  const all = JSON.stringify(features.map((f) => JSON.stringify(f.geometry)));
  const one = JSON.stringify(features.find((f) => match(f.properties))!.geometry);
  const [row] = await env.sql<{ ex: number; ey: number; ix: number; iy: number }>(sql`
    WITH f AS (SELECT ST_SetSRID(ST_GeomFromGeoJSON(${one}), 4326) AS g),
         u AS (SELECT ST_Union(ST_MakeValid(ST_SetSRID(ST_GeomFromGeoJSON(g), 4326))) AS g FROM jsonb_array_elements_text(${all}::jsonb) AS g),
         part AS (SELECT d.geom AS g FROM u, ST_Dump(u.g) d, f WHERE ST_Intersects(d.geom, ST_PointOnSurface(f.g)))
    SELECT ST_X(ST_PointN(ST_ExteriorRing(part.g), 3)) AS ex, ST_Y(ST_PointN(ST_ExteriorRing(part.g), 3)) AS ey,
           ST_X(ST_PointOnSurface(f.g)) AS ix, ST_Y(ST_PointOnSurface(f.g)) AS iy FROM part, f`);
  return { edge: [row!.ex, row!.ey], inside: [row!.ix, row!.iy] };
}

/** A square of `metres` centred on a point. */
const around = ([lng, lat]: [number, number], metres: number): Ring => square(...offset(lng, lat, -metres / 2, -metres / 2), metres);

async function screening(farmId: string): Promise<{ verdict: Record<string, any>; figures: Figure[] }> {
  let data: { verdict: Record<string, any>; figures: Figure[] } = { verdict: {}, figures: [] };
  // The layers' background screening reaches every farm of the tenant: wait until both figures are there.
  for (const end = Date.now() + 120_000; Date.now() < end;) {
    data = (await env.as('adminA').get(`/api/farms/${farmId}/screening/`)).body.data;
    if ([layers.parks, layers.wood].every((id) => data.figures.some((f) => f.layer_id === id))) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return data;
}

beforeAll(async () => {
  env = await testEnv();
  const farmerA = (await tenantGeo(env, env.fx.tenantA)).farmerId;
  const lope = await spotsOf('gabon-parks-osm.geojson', (p) => p['name'] === 'Parc national de la Lopé');
  const wood = await spotsOf('gabon-wood-osm.geojson', () => true);
  farms['inside-park'] = await insertFarmDirect(env, env.fx.tenantA, farmerA, around(lope.inside, 200));
  farms['across-park-edge'] = await insertFarmDirect(env, env.fx.tenantA, farmerA, around(lope.edge, 400));
  farms['across-wood-edge'] = await insertFarmDirect(env, env.fx.tenantA, farmerA, around(wood.edge, 120));
  farms['inside-wood'] = await insertFarmDirect(env, env.fx.tenantA, farmerA, around(wood.inside, 20));
  // Libreville's seafront: in neither layer.
  farms['away'] = await insertFarmDirect(env, env.fx.tenantA, farmerA, around([9.4536, 0.3924], 100));
  const parks = await upload('gabon-parks-osm.geojson', 'protected_area', 'Gabon national parks (OSM)');
  const woods = await upload('gabon-wood-osm.geojson', 'forest_2020', 'Gabon woods (OSM)');
  layers.parks = parks['id'];
  layers.wood = woods['id'];
}, 300_000);

describe('a real, openly licensed layer (OpenStreetMap, Gabon) loads and screens as PostGIS measures it', () => {
  it('loads every feature of both files, none repaired', async () => {
    const parks = (await env.as('adminA').get(`/api/reference-layers/${layers.parks}/`)).body.data;
    const wood = (await env.as('adminA').get(`/api/reference-layers/${layers.wood}/`)).body.data;
    expect(parks).toMatchObject({ status: 'ready', feature_count: 7, repaired_count: 0, kind: 'protected_area', licence: 'ODbL-1.0' });
    expect(wood).toMatchObject({ status: 'ready', feature_count: 81, repaired_count: 0, kind: 'forest_2020' });
  });

  it("measures each farm's overlap with each layer within 1e-6 of PostGIS on the original features", async () => {
    const union = (file: string) => JSON.stringify(JSON.parse(read(file).toString()).features.map((f: { geometry: unknown }) => JSON.stringify(f.geometry)));
    const overlapping: Record<string, number> = {};
    for (const [layerId, file] of [
      [layers.parks, 'gabon-parks-osm.geojson'],
      [layers.wood, 'gabon-wood-osm.geojson'],
    ] as const) {
      const all = union(file);
      for (const [name, id] of Object.entries(farms)) {
        const [ref] = await env.sql<{ sqm: number; share: number }>(sql`
          WITH layer AS (SELECT ST_Union(ST_MakeValid(ST_SetSRID(ST_GeomFromGeoJSON(g), 4326))) AS g FROM jsonb_array_elements_text(${all}::jsonb) AS g)
          SELECT ST_Area(ST_Intersection(f.geom, layer.g)::geography) AS sqm,
                 ST_Area(ST_Intersection(f.geom, layer.g)::geography) / ST_Area(f.geom::geography) AS share
            FROM farms f, layer WHERE f.id = ${id}`);
        const fig = (await screening(id)).figures.find((f) => f.layer_id === layerId);
        expect(fig, `${name} × ${file}`).toBeDefined();
        const sqm = Number(ref!.sqm);
        if (sqm === 0) expect(fig!.overlap_sqm, `${name} × ${file}`).toBe(0);
        else {
          expect(Math.abs(fig!.overlap_sqm - sqm) / sqm, `${name} × ${file}`).toBeLessThan(1e-6);
          expect(Math.abs(fig!.share - Number(ref!.share)) / Number(ref!.share), `${name} × ${file}`).toBeLessThan(1e-6);
          overlapping[`${name} × ${file}`] = Number(ref!.share);
        }
      }
    }
    // The farms sit where they were meant to: wholly inside, partly (an edge), not at all.
    expect(overlapping['inside-park × gabon-parks-osm.geojson']).toBeCloseTo(1, 9);
    expect(overlapping['across-park-edge × gabon-parks-osm.geojson']).toBeGreaterThan(0.05);
    expect(overlapping['across-park-edge × gabon-parks-osm.geojson']).toBeLessThan(0.95);
    expect(overlapping['across-wood-edge × gabon-wood-osm.geojson']).toBeGreaterThan(0.05);
    expect(overlapping['across-wood-edge × gabon-wood-osm.geojson']).toBeLessThan(0.95);
    expect(overlapping['inside-wood × gabon-wood-osm.geojson']).toBeCloseTo(1, 9);
    expect(Object.keys(overlapping).filter((k) => k.startsWith('away'))).toEqual([]);
  });

  it('gives each farm the verdict of the documented tree: a park → high, a wood → review, neither → low', async () => {
    const verdict = async (name: string) => (await screening(farms[name]!)).verdict;
    for (const name of ['inside-park', 'across-park-edge']) {
      const v = await verdict(name);
      expect(v['level'], name).toBe('high');
      expect(
        v['reasons'].map((r: { code: string }) => r.code),
        name,
      ).toContain('protected_area');
    }
    for (const name of ['across-wood-edge', 'inside-wood']) {
      const v = await verdict(name);
      expect(
        v['reasons'].map((r: { code: string }) => r.code),
        name,
      ).toContain('forest_2020');
      expect(['review', 'high'], name).toContain(v['level']);
    }
    // Away from both, neither layer gives a reason, and with no other reason the verdict is low. (Other test files of
    // the same run may leave layers in use that this farm has no figure for yet, "not_screened": not this test's.)
    const away = await verdict('away');
    const reasons = away['reasons'] as Array<{ code: string; layer_id?: string }>;
    expect(reasons.filter((r) => r.layer_id === layers.parks || r.layer_id === layers.wood)).toEqual([]);
    if (reasons.every((r) => r.code === 'no_overlap')) expect(away['level']).toBe('low');
    else expect(reasons.some((r) => r.code === 'no_overlap')).toBe(false);
  });
});
