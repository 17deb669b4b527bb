// Issue 28 §1 through the API: an RD New (EPSG:28992) Shapefile with the .prj GDAL writes, and a GeoJSON with the legacy
// "crs" member urn:ogc:def:crs:EPSG::28992, are analysed where PROJ (ogr2ogr) puts them: every stored vertex within
// 0.05 m of GDAL's. A .prj whose datum has no transformation (Kertau RSO), an unknown CRS and a "crs" after the features
// are refused with 400 crs_unsupported naming it, and nothing is analysed.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { testEnv, type TestEnv } from '../../test/harness.js';
import { arrangeTenant, multipart, outcome, rect } from '../../test/analysis-fixtures.js';
import { gdalShapefile, hasOgr2ogr, maxDistanceM, plotsNear } from '../../ingest/crs-gdal.js';
import { definitionOf } from '../../ingest/crs.js';
import { srsRegistry } from '../../ingest/srs-registry.js';

type Polygon = { type: 'Polygon'; coordinates: number[][][] };

describe.skipIf(!hasOgr2ogr())('custom analysis: files in a national grid land where PROJ puts them (issue 28)', () => {
  if (!hasOgr2ogr()) console.warn('ogr2ogr (Debian gdal-bin) is not installed: the comparison with PROJ is skipped');
  let env: TestEnv;
  let t: Awaited<ReturnType<typeof arrangeTenant>>;

  beforeAll(async () => {
    env = await testEnv();
    t = await arrangeTenant(env, [{ name: 'Utrecht', ring: rect(5.0, 51.9, 5.6, 52.4) }]);
  });

  const post = (filename: string, content: Buffer) =>
    t.caller.request({
      method: 'POST',
      url: '/api/custom-analysis/',
      ...multipart({ operational_areas: t.areaIds, minimum_farm_size: '1', require_farm_recognition: 'false' }, filename, content),
    });

  /** The analysed (stored) geometries of an analysis in row order, at full precision. */
  const stored = async (id: string) =>
    (await env.sql<{ g: Polygon }>(sql`SELECT ST_AsGeoJSON(geom, 15)::json AS g FROM custom_analysis_rows WHERE analysis_id = ${id} ORDER BY row_number`)).map(
      (r) => r.g,
    );

  it('analyses an RD New Shapefile (.prj without AUTHORITY) and a GeoJSON with a legacy crs member within 0.05 m of GDAL', async () => {
    const plots = plotsNear(5.3, 52.1);
    const g = gdalShapefile(28992, plots, definitionOf(srsRegistry().byCode.get(28992)!));
    const shp = await post('rd-new.zip', g.zip(g.esriPrj));
    expect(shp.status, JSON.stringify(shp.body)).toBe(201);
    const o = await outcome(t.caller, shp.body.data.id);
    expect([...o.rows.values()].map((r) => r.category)).toEqual(['within', 'within']);
    const analysed = await stored(shp.body.data.id);
    expect(maxDistanceM(analysed, g.default), 'vs PROJ default for EPSG:28992').toBeLessThan(0.05);
    expect(maxDistanceM(analysed, g.helmert), 'vs PROJ with the same Helmert').toBeLessThan(0.05);

    // The same plots as GeoJSON in RD New with "crs" named by URN, as older GDAL and QGIS write it.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crs-geojson-'));
    try {
      const src = path.join(dir, 'plots.geojson');
      fs.writeFileSync(src, JSON.stringify({ type: 'FeatureCollection', features: plots.map((p) => ({ type: 'Feature', ...p })) }));
      const rd = path.join(dir, 'rd.geojson');
      execFileSync('ogr2ogr', ['-f', 'GeoJSON', '-t_srs', 'EPSG:28992', '-lco', 'COORDINATE_PRECISION=4', rd, src], { stdio: 'pipe' });
      const doc = JSON.parse(fs.readFileSync(rd, 'utf8')) as Record<string, unknown>;
      expect(doc['crs']).toEqual({ type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::28992' } });
      const back = path.join(dir, 'back.geojson');
      execFileSync('ogr2ogr', ['-f', 'GeoJSON', '-t_srs', 'EPSG:4326', '-lco', 'COORDINATE_PRECISION=12', back, rd], { stdio: 'pipe' });
      const reference = (JSON.parse(fs.readFileSync(back, 'utf8')) as { features: Array<{ geometry: Polygon }> }).features.map((f) => f.geometry);
      const res = await post('rd-new.geojson', fs.readFileSync(rd));
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const o2 = await outcome(t.caller, res.body.data.id);
      expect([...o2.rows.values()].map((r) => r.category)).toEqual(['within', 'within']);
      expect(maxDistanceM(await stored(res.body.data.id), reference), 'GeoJSON crs vs ogr2ogr').toBeLessThan(0.05);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('refuses with 400 crs_unsupported, naming it, a datum without a transformation, an unknown CRS and a late crs member', async () => {
    const [before] = await env.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM custom_analyses WHERE tenant_id = ${t.tenantId}`);
    const plots = plotsNear(101.7, 3.1);
    const kertau = execFileSync('gdalsrsinfo', ['-o', 'wkt1', 'EPSG:3168'], { stdio: 'pipe' }).toString('utf8');
    const g = gdalShapefile(3168, plots, '+proj=longlat +datum=WGS84');
    const cases: Array<[string, Buffer, RegExp]> = [
      ['kertau.zip', g.zip(kertau), /Kertau/],
      // The ESRI .prj of a made-up datum on the Bessel ellipsoid: no registry system matches it.
      [
        'nowhere.zip',
        g.zip(
          g.esriPrj
            .replace(/PROJCS\["[^"]*"/, 'PROJCS["Nowhere_Grid"')
            .replace(/D_Kertau[^"]*/, 'D_Nowhere')
            .replace(/Everest_1830_Modified[^,]*,[\d.]+,[\d.]+/, 'Bessel_1841",6377397.155,299.1528128'),
        ),
        /Nowhere/,
      ],
      [
        'urn.geojson',
        Buffer.from(
          JSON.stringify({
            type: 'FeatureCollection',
            crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::999999' } },
            features: [{ type: 'Feature', properties: {}, geometry: plots[0]!.geometry }],
          }),
        ),
        /999999/,
      ],
      [
        'late.geojson',
        Buffer.from(
          JSON.stringify({
            type: 'FeatureCollection',
            features: [{ type: 'Feature', properties: {}, geometry: plots[0]!.geometry }],
            crs: { type: 'name', properties: { name: 'EPSG:28992' } },
          }),
        ),
        /before "features"/,
      ],
    ];
    for (const [name, content, names] of cases) {
      const res = await post(name, content);
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.code, name).toBe('crs_unsupported');
      expect(res.body.message, name).toMatch(names);
      expect(Object.keys(res.body.errors)[0]).toBe('file');
    }
    const [after] = await env.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM custom_analyses WHERE tenant_id = ${t.tenantId}`);
    expect(after!.n, 'nothing analysed').toBe(before!.n);
  }, 120_000);
});
