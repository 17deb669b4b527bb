// GET /farms/{id}/screening/evidence/ (issue 29, the farm drawer's map): the features of the layers in use that meet the
// farm, merged from their stored pieces and clipped to the farm's widened box; a layer feature away from the farm is
// left out; tenant B gets 404 for tenant A's farm, and tenant A never gets tenant B's layer features.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Caller, TestEnv } from '../../test/harness.js';
import { testEnv } from '../../test/harness.js';
import { freshSpot, insertFarmDirect, multipart, offset, square, tenantGeo, type Ring } from '../../test/geo-fixtures.js';

let env: TestEnv;

const closed = (r: Ring) => [...r, r[0]!];
const polygon = (r: Ring) => ({ type: 'Polygon', coordinates: [closed(r)] });
const collection = (geometries: unknown[]) =>
  Buffer.from(
    JSON.stringify({ type: 'FeatureCollection', features: geometries.map((g, i) => ({ type: 'Feature', properties: { name: `F${i + 1}` }, geometry: g })) }),
  );
const details = (over: Record<string, string>) => ({
  kind: 'forest_2020',
  reference_date: '2020-12-31',
  source: 'Synthetic test layer',
  licence: 'CC0-1.0',
  ...over,
});

/** A circle of `metres` radius with n vertices (n ≫ 256, so the load cuts it into several pieces). */
function circle(lng: number, lat: number, metres: number, n: number): Ring {
  const out: Ring = [];
  for (let i = 0; i < n; i++) out.push(offset(lng, lat, metres * Math.cos((2 * Math.PI * i) / n), metres * Math.sin((2 * Math.PI * i) / n)));
  return out;
}

async function uploadReady(caller: Caller, base: string, fields: Record<string, string>, geometries: unknown[]): Promise<string> {
  const body = multipart(fields, [{ field: 'file', filename: 'layer.geojson', content: collection(geometries) }]);
  const res = await caller.request({ method: 'POST', url: base, payload: body.payload, headers: body.headers });
  expect(res.status, res.raw).toBe(202);
  const id = res.body.data.id as string;
  let status = 'queued';
  for (const end = Date.now() + 60_000; Date.now() < end && !['ready', 'failed'].includes(status);) {
    await new Promise((r) => setTimeout(r, 50));
    status = (await caller.get(`${base}${id}/progress/`)).body.data.status;
  }
  expect(status).toBe('ready');
  return id;
}

type Evidence = {
  type: string;
  farm_id: string;
  bbox: [number, number, number, number];
  truncated: boolean;
  features: Array<{ geometry: { type: string; coordinates: number[][][][] }; properties: Record<string, unknown> }>;
};

describe('farm screening evidence', () => {
  const [lng, lat] = freshSpot();
  let farmA = '';
  let farmB = '';
  let forestA = '';
  let ownB = '';
  let provider = '';

  beforeAll(async () => {
    env = await testEnv();
    const geoA = await tenantGeo(env, env.fx.tenantA);
    const geoB = await tenantGeo(env, env.fx.tenantB);
    // A 200 m farm at the edge of a 1 km forest circle (several pieces), beside a far feature of the same layer.
    farmA = await insertFarmDirect(env, env.fx.tenantA, geoA.farmerId, square(...offset(lng, lat, 900, -100), 200));
    farmB = await insertFarmDirect(env, env.fx.tenantB, geoB.farmerId, square(...offset(lng, lat, 900, -100), 200));
    forestA = await uploadReady(env.as('adminA'), '/api/reference-layers/', details({ name: 'Evidence forest A' }), [
      polygon(circle(lng, lat, 1000, 1200)),
      polygon(square(...offset(lng, lat, 5000, 5000), 100)),
    ]);
    // Tenant B's own layer over the same place: never part of tenant A's evidence.
    ownB = await uploadReady(env.as('adminB'), '/api/reference-layers/', details({ name: 'Evidence concession B', kind: 'concession' }), [
      polygon(square(...offset(lng, lat, 900, -100), 400)),
    ]);
    provider = await uploadReady(env.as('super'), '/api/base/reference-layers/', details({ name: 'Evidence protected', kind: 'protected_area' }), [
      polygon(square(...offset(lng, lat, 900, -100), 50)),
    ]);
  });

  it("returns the features that meet the farm, clipped to the farm's widened box", async () => {
    const res = await env.as('adminA').get(`/api/farms/${farmA}/screening/evidence/`);
    expect(res.status, res.raw).toBe(200);
    const ev = res.body.data as Evidence;
    expect(ev).toMatchObject({ type: 'FeatureCollection', farm_id: farmA, truncated: false });
    const mine = ev.features.filter((f) => f.properties['layer_id'] === forestA);
    // The circle meets the farm (feature 1); the far square (feature 2) does not.
    expect(mine.map((f) => f.properties['feature'])).toEqual([1]);
    expect(mine[0]!.properties).toMatchObject({ layer_name: 'Evidence forest A', kind: 'forest_2020', owner: 'tenant' });
    expect(mine[0]!.geometry.type).toBe('MultiPolygon');
    const prov = ev.features.filter((f) => f.properties['layer_id'] === provider);
    expect(prov).toHaveLength(1);
    expect(prov[0]!.properties['owner']).toBe('provider');
    // Every position lies in the box, and the box holds the farm with a margin.
    const [w, s, e, n] = ev.bbox;
    for (const f of ev.features)
      for (const poly of f.geometry.coordinates)
        for (const ring of poly)
          for (const [x, y] of ring) {
            expect(x! >= w - 1e-7 && x! <= e + 1e-7 && y! >= s - 1e-7 && y! <= n + 1e-7).toBe(true);
          }
    const [box] = await env.sql<{ inside: boolean }>(
      sql`SELECT ST_Contains(ST_MakeEnvelope(${w}, ${s}, ${e}, ${n}, 4326), geom) AS inside FROM farms WHERE id = ${farmA}`,
    );
    expect(box!.inside).toBe(true);
    // The clipped circle, merged back from its pieces, equals the circle cut by the box (PostGIS on the original).
    const ring = closed(circle(lng, lat, 1000, 1200));
    const [cmp] = await env.sql<{ got: number; want: number }>(sql`
      SELECT ST_Area(ST_SetSRID(ST_GeomFromGeoJSON(${JSON.stringify(mine[0]!.geometry)}), 4326)::geography) AS got,
             ST_Area(ST_Intersection(ST_SetSRID(ST_GeomFromGeoJSON(${JSON.stringify({ type: 'Polygon', coordinates: [ring] })}), 4326), ST_MakeEnvelope(${w}, ${s}, ${e}, ${n}, 4326))::geography) AS want`);
    expect(Math.abs(Number(cmp!.got) - Number(cmp!.want)) / Number(cmp!.want)).toBeLessThan(1e-4);
  });

  it("tenant A never gets tenant B's layer features; tenant B gets 404 for tenant A's farm", async () => {
    const a = (await env.as('adminA').get(`/api/farms/${farmA}/screening/evidence/`)).body.data as Evidence;
    expect(a.features.map((f) => f.properties['layer_id'])).not.toContain(ownB);
    const b = await env.as('adminB').get(`/api/farms/${farmA}/screening/evidence/`);
    expect(b.status).toBe(404);
    // Tenant B's own farm at the same place shows its own layer and the provider's, never tenant A's.
    const bOwn = (await env.as('adminB').get(`/api/farms/${farmB}/screening/evidence/`)).body.data as Evidence;
    const layers = new Set(bOwn.features.map((f) => f.properties['layer_id']));
    expect(layers.has(ownB)).toBe(true);
    expect(layers.has(provider)).toBe(true);
    expect(layers.has(forestA)).toBe(false);
  });

  it('a missing farm is a 404 and a bad id names the field', async () => {
    expect((await env.as('adminA').get('/api/farms/00000000-0000-4000-8000-000000000000/screening/evidence/')).status).toBe(404);
    const bad = await env.as('adminA').get('/api/farms/not-a-uuid/screening/evidence/');
    expect(bad.status).toBe(400);
    expect(bad.raw).toContain('id');
  });
});
