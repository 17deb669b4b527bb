// Farm vector tiles through the API, decoded with @mapbox/vector-tile: tenant isolation (a tile of tenant A never holds
// tenant B's farms, and the reverse), provider reads with and without tenant_id, polygons that land where the farm is,
// points only below zoom 12, an ETag that changes when the tenant's farms change (304 while it does not), and 400s for
// tile addresses out of range. Runs on both engines (ST_AsMVT on PostgreSQL, the JS encoder on PGlite).
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { beforeAll, describe, expect, it } from 'vitest';
import { freshSpot, insertFarmDirect, square, tenantGeo } from '../../test/geo-fixtures.js';
import { testEnv, type TestEnv } from '../../test/harness.js';

let env: TestEnv;
let spot: [number, number];
let farmA: string;
let farmB: string;
let tile: { z: number; x: number; y: number };

/** The tile of zoom z that holds [lng, lat]. */
function tileOf(lng: number, lat: number, z: number) {
  const n = 2 ** z;
  const s = Math.sin((lat * Math.PI) / 180);
  return { z, x: Math.floor(((lng + 180) / 360) * n), y: Math.floor((0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * n) };
}
const url = (t: { z: number; x: number; y: number }, q = '') => `/api/farms/tiles/${t.z}/${t.x}/${t.y}.mvt${q}`;
const decode = (bytes: Buffer) => new VectorTile(new PbfReader(bytes));
const ids = (bytes: Buffer, layer: 'farms' | 'farm_points') => {
  const l = decode(bytes).layers[layer];
  return l ? Array.from({ length: l.length }, (_, i) => String(l.feature(i).properties['id'])) : [];
};

beforeAll(async () => {
  env = await testEnv();
  const geoA = await tenantGeo(env, env.fx.tenantA);
  const geoB = await tenantGeo(env, env.fx.tenantB);
  // Two farms, one per tenant, side by side well inside one zoom-14 tile (about 0.022 degrees wide).
  const fresh = freshSpot();
  tile = tileOf(fresh[0], fresh[1], 14);
  const n = 2 ** 14;
  const west = (tile.x / n) * 360 - 180;
  const north = (Math.atan(Math.sinh(Math.PI * (1 - (2 * tile.y) / n))) * 180) / Math.PI;
  spot = [west + 0.004, north - 0.008];
  farmA = await insertFarmDirect(env, env.fx.tenantA, geoA.farmerId, square(spot[0], spot[1], 80));
  farmB = await insertFarmDirect(env, env.fx.tenantB, geoB.farmerId, square(spot[0] + 0.004, spot[1], 80));
});

describe('farm vector tiles', () => {
  it("holds only the caller's tenant's farms (decoded), both layers", async () => {
    const a = await env.as('adminA').get(url(tile));
    expect(a.status).toBe(200);
    expect(a.headers['content-type']).toContain('application/vnd.mapbox-vector-tile');
    expect(ids(a.bytes, 'farms')).toContain(farmA);
    expect(ids(a.bytes, 'farm_points')).toContain(farmA);
    expect(ids(a.bytes, 'farms')).not.toContain(farmB);
    expect(ids(a.bytes, 'farm_points')).not.toContain(farmB);
    const b = await env.as('adminB').get(url(tile));
    expect(ids(b.bytes, 'farms')).toContain(farmB);
    expect(ids(b.bytes, 'farms')).not.toContain(farmA);
    const agent = await env.as('agentA').get(url(tile));
    expect(ids(agent.bytes, 'farms')).toEqual(ids(a.bytes, 'farms'));
  });

  it('every farm in a busy tenant-A tile belongs to tenant A (the demo registry)', async () => {
    // The demo farms sit around 3.7717, 7.6466 in both tenants.
    for (const z of [10, 13]) {
      const t = tileOf(3.7717, 7.6466, z);
      const res = await env.as('adminA').get(url(t));
      const found = [...ids(res.bytes, 'farm_points'), ...ids(res.bytes, 'farms')];
      expect(found.length).toBeGreaterThan(0);
      const tenants = await env.sql<{ tenant_id: string }>(`SELECT DISTINCT tenant_id FROM farms WHERE id = ANY('{${[...new Set(found)].join(',')}}'::uuid[])` as never);
      expect(tenants.map((r) => r.tenant_id)).toEqual([env.fx.tenantA]);
    }
  });

  it('puts the polygon where the farm is, with its properties', async () => {
    const res = await env.as('adminA').get(url(tile));
    const layer = decode(res.bytes).layers['farms']!;
    const f = Array.from({ length: layer.length }, (_, i) => layer.feature(i)).find((x) => x.properties['id'] === farmA)!;
    expect(f.type).toBe(3);
    expect(f.properties).toMatchObject({ category: 'outside' });
    expect(typeof f.properties['name']).toBe('string');
    expect(Number(f.properties['area'])).toBeGreaterThan(6000);
    const gj = f.toGeoJSON(tile.x, tile.y, tile.z);
    const ring = (gj.geometry as { coordinates: number[][][] }).coordinates[0]!;
    const sq = square(spot[0], spot[1], 80);
    const lngs = ring.map((p) => p[0]!);
    const lats = ring.map((p) => p[1]!);
    // Tile precision at zoom 14 is about 2.4 m.
    expect(Math.min(...lngs)).toBeCloseTo(sq[0]![0], 4);
    expect(Math.max(...lngs)).toBeCloseTo(sq[1]![0], 4);
    expect(Math.min(...lats)).toBeCloseTo(sq[0]![1], 4);
    expect(Math.max(...lats)).toBeCloseTo(sq[2]![1], 4);
  });

  it('carries points only below zoom 12', async () => {
    const low = tileOf(spot[0], spot[1], 9);
    const res = await env.as('adminA').get(url(low));
    expect(ids(res.bytes, 'farm_points')).toContain(farmA);
    expect(decode(res.bytes).layers['farms']).toBeUndefined();
  });

  it('lets provider staff read every tenant, or one with tenant_id; a tenant user naming another tenant gets 404', async () => {
    const all = await env.as('super').get(url(tile));
    expect(ids(all.bytes, 'farms')).toEqual(expect.arrayContaining([farmA, farmB]));
    const onlyB = await env.as('super').get(url(tile, `?tenant_id=${env.fx.tenantB}`));
    expect(ids(onlyB.bytes, 'farms')).toContain(farmB);
    expect(ids(onlyB.bytes, 'farms')).not.toContain(farmA);
    expect((await env.as('adminA').get(url(tile, `?tenant_id=${env.fx.tenantB}`))).status).toBe(404);
    expect((await env.as('anonymous').get(url(tile))).status).toBe(401);
  });

  it("sends an ETag, answers 304 while it holds, and changes it when the tenant's farms change (not the other tenant's)", async () => {
    const first = await env.as('adminA').get(url(tile));
    const etag = String(first.headers['etag']);
    expect(etag).toMatch(/^".+"$/);
    expect(first.headers['cache-control']).toContain('no-cache');
    const again = await env.as('adminA').get(url(tile), { 'if-none-match': etag });
    expect(again.status).toBe(304);
    const etagB = String((await env.as('adminB').get(url(tile))).headers['etag']);
    const geoA = await tenantGeo(env, env.fx.tenantA);
    const added = await insertFarmDirect(env, env.fx.tenantA, geoA.farmerId, square(spot[0], spot[1] + 0.0015, 50));
    const after = await env.as('adminA').get(url(tile), { 'if-none-match': etag });
    expect(after.status).toBe(200);
    expect(after.headers['etag']).not.toBe(etag);
    expect(ids(after.bytes, 'farms')).toContain(added);
    expect(String((await env.as('adminB').get(url(tile))).headers['etag'])).toBe(etagB);
  });

  it('answers 400 (never 5xx) for tile addresses out of range', async () => {
    for (const bad of ['/23/0/0', '/-1/0/0', '/2/4/0', '/2/0/4', '/3/-1/0', '/abc/0/0', '/1.5/0/0', '/0/0/1']) {
      const res = await env.as('adminA').get(`/api/farms/tiles${bad}.mvt`);
      expect(res.status, bad).toBe(400);
    }
    expect((await env.as('adminA').get('/api/farms/tiles/0/0/0.mvt')).status).toBe(200);
  });
});
