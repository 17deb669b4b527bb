// The load's and the screening's shortcuts (docs/decisions/0098-screening-at-scale-2.md), against PostGIS on the original
// features: a polygon within the subdivision's vertex limit is stored as it is (what ST_Subdivide returns for it), a
// multipolygon as its parts, an invalid feature repaired; a farm inside a piece is measured as its own area, a farm
// covering the one piece it meets as that piece's area, a farm inside one feature and across another as itself, a farm
// that only touches a piece as zero, and each agrees within 1e-6 with ST_Area(ST_Intersection(farm, ST_Union(features))).
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestEnv } from '../../test/harness.js';
import { testEnv } from '../../test/harness.js';
import { freshSpot, insertFarmDirect, multipart, offset, square, tenantGeo, type Ring } from '../../test/geo-fixtures.js';

let env: TestEnv;
let farmerA: string;

beforeAll(async () => {
  env = await testEnv();
  farmerA = (await tenantGeo(env, env.fx.tenantA)).farmerId;
});

const closed = (r: Ring) => [...r, r[0]!];
const polygon = (r: Ring) => ({ type: 'Polygon', coordinates: [closed(r)] });

describe('reference layers: the stored-as-is and covered-piece shortcuts agree with PostGIS', () => {
  const [lng, lat] = freshSpot();
  // F1: a 2 km square (4 vertices: stored as it is). F2: a 100 m square 3 km east. F3: a 300 m square across F1's
  // north-east corner (overlapping F1). F4: two 50 m squares as one MultiPolygon. F5: a bow-tie (invalid, repaired).
  const big = square(...offset(lng, lat, 0, 0), 2000);
  const small = square(...offset(lng, lat, 3000, 0), 100);
  const corner = square(...offset(lng, lat, 1850, 1850), 300);
  const multi = { type: 'MultiPolygon', coordinates: [[closed(square(...offset(lng, lat, 5000, 0), 50))], [closed(square(...offset(lng, lat, 5100, 0), 50))]] };
  const bowtie = polygon([offset(lng, lat, 7000, 0), offset(lng, lat, 7100, 100), offset(lng, lat, 7100, 0), offset(lng, lat, 7000, 100)]);
  const geometries = [polygon(big), polygon(small), polygon(corner), multi, bowtie];
  const farms: Record<string, string> = {};
  let layerId = '';

  beforeAll(async () => {
    farms['inside'] = await insertFarmDirect(env, env.fx.tenantA, farmerA, square(...offset(lng, lat, 500, 500), 200));
    farms['around'] = await insertFarmDirect(env, env.fx.tenantA, farmerA, square(...offset(lng, lat, 2900, -100), 300));
    farms['inside-and-across'] = await insertFarmDirect(env, env.fx.tenantA, farmerA, square(...offset(lng, lat, 1800, 1800), 150));
    farms['across-edge'] = await insertFarmDirect(env, env.fx.tenantA, farmerA, square(...offset(lng, lat, -100, 900), 200));
    // Sharing F2's east edge, vertex for vertex: it meets the piece (ST_Intersects) by a line, no area.
    const [se, ne] = [small[1]!, small[2]!];
    farms['touching'] = await insertFarmDirect(env, env.fx.tenantA, farmerA, [se, [se[0] + 0.001, se[1]], [ne[0] + 0.001, ne[1]], ne]);
    farms['same-as-piece'] = await insertFarmDirect(env, env.fx.tenantA, farmerA, small);
    const content = Buffer.from(
      JSON.stringify({ type: 'FeatureCollection', features: geometries.map((g, i) => ({ type: 'Feature', properties: { name: `F${i + 1}` }, geometry: g })) }),
    );
    const fields = { name: 'Shortcuts', kind: 'other', reference_date: '2020-12-31', source: 'Synthetic test layer', licence: 'CC0-1.0' };
    const body = multipart(fields, [{ field: 'file', filename: 'shortcuts.geojson', content }]);
    const res = await env.as('adminA').request({ method: 'POST', url: '/api/reference-layers/', payload: body.payload, headers: body.headers });
    expect(res.status, res.raw).toBe(202);
    layerId = res.body.data.id;
    let status = 'queued';
    for (const end = Date.now() + 60_000; Date.now() < end && !['ready', 'failed'].includes(status);) {
      await new Promise((r) => setTimeout(r, 50));
      status = (await env.as('adminA').get(`/api/reference-layers/${layerId}/progress/`)).body.data.status;
    }
    expect(status).toBe('ready');
  });

  it('stores a small polygon as it is, a multipolygon as its parts, and repairs an invalid feature', async () => {
    const detail = (await env.as('adminA').get(`/api/reference-layers/${layerId}/`)).body.data;
    expect(detail).toMatchObject({ feature_count: 5, repaired_count: 1 });
    const pieces = await env.sql<{ feature: number; n: number; same: boolean | null }>(sql`
      SELECT p.feature, count(*)::int AS n,
             bool_and(ST_Equals(p.geom, ST_SetSRID(ST_GeomFromGeoJSON(${JSON.stringify(polygon(big))}), 4326))) FILTER (WHERE p.feature = 1) AS same
        FROM reference_layer_features p WHERE p.layer_id = ${layerId} GROUP BY p.feature ORDER BY p.feature`);
    // F1 to F3 one piece each (F1 the very square), F4 its two parts, F5 the bow-tie's two triangles.
    expect(pieces.map((p) => [p.feature, p.n])).toEqual([
      [1, 1],
      [2, 1],
      [3, 1],
      [4, 2],
      [5, 2],
    ]);
    expect(pieces[0]!.same).toBe(true);
    expect(detail['piece_count']).toBe(7);
  });

  it('measures every farm as PostGIS does on the original features, through each shortcut', async () => {
    // The shortcuts' conditions hold for the farms meant to take them.
    const [cond] = await env.sql<{ inside: boolean; around: boolean; pieces_around: number }>(sql`
      SELECT bool_or(ST_Covers(p.geom, f.geom)) FILTER (WHERE f.id = ${farms['inside']}) AS inside,
             bool_or(ST_Covers(f.geom, p.geom)) FILTER (WHERE f.id = ${farms['around']}) AS around,
             (count(*) FILTER (WHERE f.id = ${farms['around']}))::int AS pieces_around
        FROM farms f JOIN reference_layer_features p ON p.layer_id = ${layerId} AND ST_Intersects(p.geom, f.geom)`);
    expect(cond).toEqual({ inside: true, around: true, pieces_around: 1 });
    const layer = JSON.stringify(geometries.map((g) => JSON.stringify(g)));
    for (const [name, id] of Object.entries(farms)) {
      const [ref] = await env.sql<{ sqm: number; share: number }>(sql`
        WITH layer AS (SELECT ST_Union(ST_MakeValid(ST_SetSRID(ST_GeomFromGeoJSON(g), 4326))) AS g FROM jsonb_array_elements_text(${layer}::jsonb) AS g)
        SELECT ST_Area(ST_Intersection(f.geom, layer.g)::geography) AS sqm, ST_Area(ST_Intersection(f.geom, layer.g)::geography) / ST_Area(f.geom::geography) AS share
          FROM farms f, layer WHERE f.id = ${id}`);
      const res = await env.as('adminA').get(`/api/farms/${id}/screening/`);
      expect(res.status, name).toBe(200);
      const fig = res.body.data.figures.find((f: { layer_id: string }) => f.layer_id === layerId);
      expect(fig, name).toBeDefined();
      const sqm = Number(ref!.sqm);
      if (sqm === 0) expect(fig.overlap_sqm, name).toBe(0);
      else expect(Math.abs(fig.overlap_sqm - sqm) / sqm, name).toBeLessThan(1e-6);
      if (sqm > 0) expect(Math.abs(fig.share - Number(ref!.share)) / Number(ref!.share), name).toBeLessThan(1e-6);
    }
    const share = async (name: string) =>
      (await env.as('adminA').get(`/api/farms/${farms[name]}/screening/`)).body.data.figures.find((f: { layer_id: string }) => f.layer_id === layerId).share;
    expect(await share('inside')).toBe(1);
    expect(await share('inside-and-across')).toBe(1);
    expect(await share('same-as-piece')).toBe(1);
    expect(await share('touching')).toBe(0);
    expect((await env.as('adminA').delete(`/api/reference-layers/${layerId}/`)).status).toBe(200);
  });
});

describe('reference layers: a bad feature in a later window while an earlier one is written', () => {
  it('names the first bad feature and leaves no features, whichever window finds its fault first', async () => {
    const [lng, lat] = freshSpot();
    // 1,200 small squares (three windows of LOAD_WINDOW): feature 520 has no area (the database finds it while writing
    // the second window), feature 1,100 is a point (the reader finds it, in the third, maybe before that write ends).
    const features = Array.from({ length: 1200 }, (_, i) => {
      const [x, y] = offset(lng, lat, (i % 40) * 30, Math.floor(i / 40) * 30);
      const geometry =
        i + 1 === 520
          ? polygon([
              [x, y],
              [x + 0.0001, y],
              [x + 0.0002, y],
            ])
          : i + 1 === 1100
            ? { type: 'Point', coordinates: [x, y] }
            : polygon(square(x, y, 20));
      return { type: 'Feature', properties: { name: `F${i + 1}` }, geometry };
    });
    const content = Buffer.from(JSON.stringify({ type: 'FeatureCollection', features }));
    const fields = { name: 'Broken late', kind: 'other', reference_date: '2020-12-31', source: 'Synthetic test layer', licence: 'CC0-1.0' };
    const body = multipart(fields, [{ field: 'file', filename: 'late.geojson', content }]);
    const res = await env.as('adminA').request({ method: 'POST', url: '/api/reference-layers/', payload: body.payload, headers: body.headers });
    expect(res.status, res.raw).toBe(202);
    const id = res.body.data.id as string;
    let detail: Record<string, any> = { status: 'queued' };
    for (const end = Date.now() + 60_000; Date.now() < end && !['ready', 'failed'].includes(detail['status']);) {
      await new Promise((r) => setTimeout(r, 50));
      detail = (await env.as('adminA').get(`/api/reference-layers/${id}/progress/`)).body.data;
    }
    const layer = (await env.as('adminA').get(`/api/reference-layers/${id}/`)).body.data;
    expect(layer).toMatchObject({ status: 'failed', version: 0, loading_version: null, error_feature: 520 });
    expect(layer['error']).toMatch(/Feature 520/);
    const [n] = await env.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM reference_layer_features WHERE layer_id = ${id}`);
    expect(n!.n).toBe(0);
    expect((await env.as('adminA').delete(`/api/reference-layers/${id}/`)).status).toBe(200);
  });
});
