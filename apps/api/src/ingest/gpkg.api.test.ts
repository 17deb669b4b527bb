// Issue 29, GeoPackage through the API: a tenant's reference layer uploaded as a projected .gpkg (UTM, built by ogr2ogr)
// loads, and its overlap with a farm agrees with PostGIS on GDAL's own reprojection of the file; tenant B sees none of
// it. A bad feature (a point in a layer, a damaged geometry blob) fails the load with its number and leaves nothing. A
// custom analysis reads the same .gpkg (points included) as it reads the GeoJSON of the same plots.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../test/harness.js';
import { testEnv, type TestEnv } from '../test/harness.js';
import { arrangeTenant, multipart as analysisMultipart, outcome, rect } from '../test/analysis-fixtures.js';
import { freshSpot, insertFarmDirect, multipart, square, tenantGeo } from '../test/geo-fixtures.js';
import { hasOgr2ogr } from './crs-gdal.js';
import { gdalGeoPackage, gpkgPlots } from './gpkg-gdal.js';
import { freshSqlJs } from './gpkg.js';

let env: TestEnv;
beforeAll(async () => {
  env = await testEnv();
});

const details = { name: 'Forest 2020 (GeoPackage)', kind: 'forest_2020', reference_date: '2020-12-31', source: 'Synthetic test layer', licence: 'CC0-1.0' };

async function upload(caller: Caller, filename: string, content: Buffer) {
  const body = multipart(details, [{ field: 'file', filename, content }]);
  return caller.request({ method: 'POST', url: '/api/reference-layers/', payload: body.payload, headers: body.headers });
}

async function settled(caller: Caller, id: string, timeoutMs = 60_000): Promise<Record<string, any>> {
  let status = 'queued';
  for (const end = Date.now() + timeoutMs; Date.now() < end && !['ready', 'failed'].includes(status);) {
    await new Promise((r) => setTimeout(r, 50));
    status = (await caller.get(`/api/reference-layers/${id}/progress/`)).body.data.status;
  }
  return (await caller.get(`/api/reference-layers/${id}/`)).body.data;
}

/** The UTM zone (EPSG code) of a position. */
const utmOf = (lng: number, lat: number) => (lat >= 0 ? 32600 : 32700) + Math.floor((lng + 180) / 6) + 1;

describe.skipIf(!hasOgr2ogr())('GeoPackage uploads through the API', () => {
  it('a projected .gpkg layer loads; its overlap agrees with PostGIS on GDAL’s reprojection; tenant B sees nothing', async () => {
    const [lng, lat] = freshSpot();
    const code = utmOf(lng, lat);
    const polygons = gpkgPlots(lng, lat).slice(0, 3);
    const { gpkg, wgs84 } = gdalGeoPackage(polygons, code);
    const farmerA = (await tenantGeo(env, env.fx.tenantA)).farmerId;
    // Across the holed square's hole and across both parts' gap.
    const farm = await insertFarmDirect(env, env.fx.tenantA, farmerA, square(lng + 0.0065, lat + 0.0005, 250));
    const farm2 = await insertFarmDirect(env, env.fx.tenantA, farmerA, square(lng + 0.0015, lat + 0.0055, 300));
    const res = await upload(env.as('adminA'), 'forest.gpkg', gpkg);
    expect(res.status, res.raw).toBe(202);
    const id = res.body.data.id as string;
    const layer = await settled(env.as('adminA'), id);
    expect(layer).toMatchObject({ status: 'ready', version: 1, feature_count: 3, error: null });
    for (const f of [farm, farm2]) {
      const fig = (await env.as('adminA').get(`/api/farms/${f}/screening/`)).body.data.figures.find((x: { layer_id: string }) => x.layer_id === id);
      const [ref] = await env.sql<{ sqm: number }>(sql`
        WITH layer AS (SELECT ST_Union(ST_SetSRID(ST_GeomFromGeoJSON(g), 4326)) AS g FROM jsonb_array_elements_text(${JSON.stringify(wgs84.map((g) => JSON.stringify(g)))}::jsonb) AS g)
        SELECT ST_Area(ST_Intersection(f.geom, layer.g)::geography) AS sqm FROM farms f, layer WHERE f.id = ${f}`);
      expect(Number(ref!.sqm)).toBeGreaterThan(1000);
      expect(Math.abs(fig.overlap_sqm - Number(ref!.sqm)) / Number(ref!.sqm)).toBeLessThan(1e-5);
    }
    // Cross-tenant: tenant B neither lists nor reads nor changes it.
    const b = env.as('adminB');
    expect((await b.get('/api/reference-layers/')).body.data.map((l: { id: string }) => l.id)).not.toContain(id);
    expect((await b.get(`/api/reference-layers/${id}/`)).status).toBe(404);
    expect((await b.get(`/api/reference-layers/${id}/progress/`)).status).toBe(404);
    expect((await b.delete(`/api/reference-layers/${id}/`)).status).toBe(404);
  }, 120_000);

  it('a bad feature fails the load with its number and leaves nothing loaded', async () => {
    const [lng, lat] = freshSpot();
    // The fourth feature is a point: a reference layer holds areas.
    const withPoint = gdalGeoPackage(gpkgPlots(lng, lat), utmOf(lng, lat)).gpkg;
    const a = await upload(env.as('adminA'), 'with-point.gpkg', withPoint);
    expect(a.status, a.raw).toBe(202);
    expect(await settled(env.as('adminA'), a.body.data.id)).toMatchObject({ status: 'failed', version: 0, error_feature: 4 });
    // A damaged geometry blob (feature 2, fid 2).
    const db = new (await freshSqlJs()).Database(Uint8Array.from(gdalGeoPackage(gpkgPlots(lng, lat).slice(0, 3), 4326, ['-lco', 'SPATIAL_INDEX=NO']).gpkg));
    db.run("UPDATE plots SET geom = X'4750000100000000' || randomblob(3) WHERE fid = 2");
    const damaged = Buffer.from(db.export());
    db.close();
    const d = await upload(env.as('adminA'), 'damaged.gpkg', damaged);
    expect(d.status, d.raw).toBe(202);
    const failed = await settled(env.as('adminA'), d.body.data.id);
    expect(failed).toMatchObject({ status: 'failed', version: 0, error_feature: 2 });
    expect(failed['error']).toMatch(/^Feature 2 \(fid 2\) of the GeoPackage file "damaged\.gpkg" has a damaged geometry/);
    const [n] = await env.sql<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM reference_layer_features WHERE layer_id IN (${a.body.data.id}, ${d.body.data.id})`,
    );
    expect(n!.n).toBe(0);
    // Not a GeoPackage: refused at upload, naming the field.
    const notGpkg = await upload(env.as('adminA'), 'plots.gpkg', Buffer.from('{"type":"FeatureCollection","features":[]}'));
    expect(notGpkg.status).toBe(400);
    expect(notGpkg.body).toMatchObject({ code: 'file_type_mismatch' });
  }, 120_000);

  it('a custom analysis reads a .gpkg (points included) as it reads the same plots in GeoJSON', async () => {
    const [lng, lat] = [10.02, 10.02];
    const t = await arrangeTenant(env, [{ name: 'Block', ring: rect(10.0, 10.0, 10.1, 10.1) }]);
    const plots = gpkgPlots(lng, lat);
    const { gpkg } = gdalGeoPackage(plots, utmOf(lng, lat));
    const run = async (filename: string, content: Buffer) => {
      const res = await t.caller.request({
        method: 'POST',
        url: '/api/custom-analysis/',
        ...analysisMultipart({ operational_areas: t.areaIds, minimum_farm_size: '1', require_farm_recognition: 'false' }, filename, content),
      });
      expect(res.status, `${filename}: ${res.raw}`).toBe(201);
      const o = await outcome(t.caller, res.body.data.id);
      return [...o.rows.entries()]
        .sort((x, y) => x[0] - y[0])
        .map(([k, r]) => ({
          k,
          category: r.category,
          errors: r.errors,
          area: r.area === null ? null : Number(r.area.toPrecision(5)),
          area_name: r.operational_area,
        }));
    };
    const fromGeoJson = await run('plots.geojson', Buffer.from(JSON.stringify({ type: 'FeatureCollection', features: plots })));
    expect(fromGeoJson.map((r) => r.category)).toEqual(['within', 'within', 'within', 'within']);
    expect(await run('plots.gpkg', gpkg)).toEqual(fromGeoJson);
  }, 180_000);
});
