// Issue 29: the GeoPackage reader against GDAL. Files are built here by ogr2ogr from GeoJSON plots (a polygon, one with
// a hole, a MultiPolygon, a point; every position with a Z), in EPSG:4326 and projected (UTM 31N, Lambert-93, RD New); every
// vertex read lands within 0.05 m of GDAL's own reprojection of the same file, and every area within 1e-6 of PostGIS's
// (ST_Transform of the projected geometry). Bad input: a truncated file, an SQLite file that is not a GeoPackage, a
// coordinate system no registry entry matches, a damaged geometry blob, several feature tables, a file over the cap.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { testEnv, type TestEnv } from '../test/harness.js';
import { hasOgr2ogr } from './crs-gdal.js';
import { gdalGeoPackage, gpkgPlots, maxVertexDistanceM } from './gpkg-gdal.js';
import { freshSqlJs, MAX_GPKG_BYTES } from './gpkg.js';
import { ParseError } from './limits.js';
import { parseWholeFile, readAnalysisFile } from './read.js';

type Geometry = { type: string; coordinates: unknown };

async function refusal(buf: Uint8Array, name = 'plots.gpkg'): Promise<ParseError> {
  try {
    await parseWholeFile(buf, name);
  } catch (err) {
    if (err instanceof ParseError) return err;
    throw err;
  }
  throw new Error('the file was read');
}

/** Without the R-tree index, whose triggers call SpatiaLite functions sql.js lacks: files the tests edit. */
const NO_INDEX = ['-lco', 'SPATIAL_INDEX=NO'];

/** The file with SQL run on it (sql.js, the reader's own SQLite), on a copy (sql.js may write in the buffer it is given). */
async function edited(buf: Buffer, statements: string): Promise<Buffer> {
  const db = new (await freshSqlJs()).Database(Uint8Array.from(buf));
  try {
    db.run(statements);
    return Buffer.from(db.export());
  } finally {
    db.close();
  }
}

const [LNG, LAT] = [2.9, 45.6];

describe.skipIf(!hasOgr2ogr())('GeoPackage reader against GDAL and PostGIS', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await testEnv();
  });

  it.each([
    [4326, LNG, LAT],
    [32631, LNG, LAT],
    [2154, LNG, LAT],
    [28992, 5.3, 52.1],
  ])('EPSG:%i: every vertex within 0.05 m of ogr2ogr, areas as PostGIS', async (code, lng, lat) => {
    const plots = gpkgPlots(lng, lat);
    const { gpkg, wgs84 } = gdalGeoPackage(plots, code);
    const { kind, rows } = await parseWholeFile(gpkg, 'plots.gpkg');
    expect(kind).toBe('gpkg');
    expect(rows.map((r) => [r['farm_name'], r['ref'], (r['farm_coordinates'] as Geometry).type])).toEqual([
      ['Irregular', 1, 'Polygon'],
      ['Holed', 2, 'Polygon'],
      ['Two parts', 3, 'MultiPolygon'],
      ['Point plot', 4, 'Point'],
    ]);
    const read = rows.map((r) => r['farm_coordinates'] as Geometry);
    // Z dropped: two numbers per position.
    expect((read[1]!.coordinates as number[][][])[1]![0]).toHaveLength(2);
    let worst = 0;
    read.forEach((g, i) => (worst = Math.max(worst, maxVertexDistanceM(g, wgs84[i]!))));
    console.info(`GeoPackage EPSG:${code}: max vertex distance to ogr2ogr ${worst.toFixed(5)} m`);
    expect(worst).toBeLessThan(0.05);
    // Areas: ours (already WGS84) against PostGIS's own transformation of the projected geometry ogr2ogr wrote.
    const native = code === 4326 ? wgs84 : nativeGeometries(gpkg);
    for (let i = 0; i < 3; i++) {
      const [a] = await env.sql<{ ours: number; postgis: number }>(sql`
        SELECT ST_Area(ST_SetSRID(ST_GeomFromGeoJSON(${JSON.stringify(read[i])}), 4326)::geography) AS ours,
               ST_Area(ST_Transform(ST_SetSRID(ST_GeomFromGeoJSON(${JSON.stringify(native[i])}), ${code}::int), 4326)::geography) AS postgis`);
      expect(Math.abs(Number(a!.ours) - Number(a!.postgis)) / Number(a!.postgis), `feature ${i + 1}`).toBeLessThan(1e-6);
    }
  });

  it('a truncated file: 400 naming the file, nothing read', async () => {
    const { gpkg } = gdalGeoPackage(gpkgPlots(LNG, LAT), 32631);
    const err = await refusal(gpkg.subarray(0, Math.floor(gpkg.length / 2)));
    expect(err).toMatchObject({ status: 400, code: 'file_unreadable' });
    expect(err.message).toContain('"plots.gpkg"');
    expect(err.message).toMatch(/truncated/);
  });

  it('a damaged page (the header intact): 400 naming the file', async () => {
    const { gpkg } = gdalGeoPackage(gpkgPlots(LNG, LAT), 32631);
    const bad = Buffer.from(gpkg);
    bad.fill(0xa5, 4096, bad.length);
    const err = await refusal(bad);
    expect(err).toMatchObject({ status: 400, code: 'file_unreadable' });
    expect(err.message).toMatch(/"plots\.gpkg" (is damaged|is an SQLite database but not a GeoPackage)/);
  });

  it('an SQLite file that is not a GeoPackage: 400 saying so', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-'));
    try {
      fs.writeFileSync(path.join(dir, 'p.geojson'), JSON.stringify({ type: 'FeatureCollection', features: gpkgPlots(LNG, LAT) }));
      execFileSync('ogr2ogr', ['-f', 'SQLite', path.join(dir, 'p.sqlite'), path.join(dir, 'p.geojson')], { stdio: 'pipe' });
      const err = await refusal(fs.readFileSync(path.join(dir, 'p.sqlite')), 'plots.gpkg');
      expect(err).toMatchObject({ status: 400, code: 'file_unreadable' });
      expect(err.message).toContain('The GeoPackage file "plots.gpkg" is an SQLite database but not a GeoPackage');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a coordinate system no registry entry matches: 400 crs_unsupported naming it', async () => {
    const custom = '+proj=tmerc +lat_0=0 +lon_0=3.3 +k=0.9991 +x_0=123456 +y_0=-1000 +ellps=intl +towgs84=-87,-98,-121,0,0,0,0 +units=m +no_defs';
    const { gpkg } = gdalGeoPackage(gpkgPlots(LNG, LAT), 32631, ['-s_srs', 'EPSG:4326', '-t_srs', custom]);
    const err = await refusal(gpkg);
    expect(err).toMatchObject({ status: 400, code: 'crs_unsupported' });
    expect(err.message).toMatch(
      /^The GeoPackage file "plots\.gpkg"'s coordinate system cannot be placed on WGS84: .*matches no coordinate system of the EPSG registry/,
    );
    // An srs_id missing from gpkg_spatial_ref_sys, and an undefined one, are named too.
    const missing = await refusal(await edited(gdalGeoPackage(gpkgPlots(LNG, LAT), 32631).gpkg, 'UPDATE gpkg_geometry_columns SET srs_id = 777;'));
    expect(missing).toMatchObject({ status: 400, code: 'crs_unsupported' });
    expect(missing.message).toContain('srs_id 777 is not in gpkg_spatial_ref_sys');
    const undefinedCrs = await refusal(
      await edited(
        gdalGeoPackage(gpkgPlots(LNG, LAT), 32631).gpkg,
        "UPDATE gpkg_spatial_ref_sys SET organization = 'NONE', organization_coordsys_id = 0, definition = 'undefined', srs_name = 'Site grid' WHERE srs_id = 32631;",
      ),
    );
    expect(undefinedCrs).toMatchObject({ status: 400, code: 'crs_unsupported' });
    expect(undefinedCrs.message).toContain('Site grid (NONE:0) is undefined');
  });

  it('a damaged geometry blob: 400 naming the feature by number and fid', async () => {
    const { gpkg } = gdalGeoPackage(gpkgPlots(LNG, LAT), 32631, NO_INDEX);
    // Feature 2: a Polygon WKB that claims 1,000 rings it does not hold; feature 3: no "GP" magic.
    const polygonLie = await edited(gpkg, "UPDATE plots SET geom = X'47500001FB7F00000103000000E8030000' WHERE fid = 2;");
    const err = await refusal(polygonLie);
    expect(err).toMatchObject({ status: 400, code: 'file_unreadable', feature: 2 });
    expect(err.message).toMatch(/^Feature 2 \(fid 2\) of the GeoPackage file "plots\.gpkg" has a damaged geometry: the WKB counts 1000 items/);
    const noMagic = await refusal(await edited(gpkg, "UPDATE plots SET geom = X'0103000000' WHERE fid = 3;"));
    expect(noMagic.message).toMatch(/^Feature 3 \(fid 3\) .* does not start with the GeoPackage "GP" header/);
    const truncatedWkb = await refusal(await edited(gpkg, 'UPDATE plots SET geom = substr(geom, 1, length(geom) - 9) WHERE fid = 1;'));
    expect(truncatedWkb.message).toMatch(/^Feature 1 \(fid 1\) .*the WKB (ends early|counts \d+ items)/);
  });

  it('several feature tables are refused, naming them; an empty table is file_empty', async () => {
    const { gpkg } = gdalGeoPackage(gpkgPlots(LNG, LAT), 4326, NO_INDEX);
    const two = await edited(
      gpkg,
      `CREATE TABLE other (fid INTEGER PRIMARY KEY, geom BLOB);
       INSERT INTO gpkg_contents (table_name, data_type, identifier, srs_id) VALUES ('other', 'features', 'other', 4326);
       INSERT INTO gpkg_geometry_columns (table_name, column_name, geometry_type_name, srs_id, z, m) VALUES ('other', 'geom', 'POLYGON', 4326, 0, 0);`,
    );
    const err = await refusal(two);
    expect(err).toMatchObject({ status: 400, code: 'file_unreadable' });
    expect(err.message).toContain('holds 2 feature tables ("plots", "other"); send one table per file');
    const empty = await refusal(await edited(gpkg, 'DELETE FROM plots;'));
    expect(empty).toMatchObject({ status: 400, code: 'file_empty' });
  });

  it('a file over the cap is refused before it is read (413 naming the cap)', async () => {
    const file = path.join(os.tmpdir(), `big-${process.pid}.gpkg`);
    const { gpkg } = gdalGeoPackage(gpkgPlots(LNG, LAT), 4326);
    fs.writeFileSync(file, gpkg);
    fs.truncateSync(file, MAX_GPKG_BYTES + 1);
    try {
      const err = await readAnalysisFile(file, 'big.gpkg', { maxRows: 10, window: 10 }, async () => undefined).catch((e: unknown) => e);
      expect(err).toMatchObject({ status: 413, code: 'file_too_large' });
      expect((err as Error).message).toContain(`at most ${MAX_GPKG_BYTES / 1048576} MB`);
    } finally {
      fs.rmSync(file, { force: true });
    }
  });

  it('names a .gpkg whose content is another format a mismatch, and another format named .gpkg too', async () => {
    const { gpkg } = gdalGeoPackage(gpkgPlots(LNG, LAT), 4326);
    await expect(parseWholeFile(gpkg, 'plots.geojson')).rejects.toMatchObject({ status: 400, code: 'file_type_mismatch' });
    await expect(parseWholeFile(Buffer.from('{"type":"FeatureCollection","features":[]}'), 'plots.gpkg')).rejects.toMatchObject({
      status: 400,
      code: 'file_type_mismatch',
    });
  });
});

/** The geometries of a GeoPackage in its own CRS, as GDAL reads them (GeoJSON without reprojection). */
function nativeGeometries(gpkg: Buffer): Geometry[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpkg-native-'));
  try {
    fs.writeFileSync(path.join(dir, 'p.gpkg'), gpkg);
    execFileSync('ogr2ogr', ['-f', 'GeoJSON', '-lco', 'COORDINATE_PRECISION=6', '-lco', 'RFC7946=NO', path.join(dir, 'n.geojson'), path.join(dir, 'p.gpkg')], {
      stdio: 'pipe',
    });
    return (JSON.parse(fs.readFileSync(path.join(dir, 'n.geojson'), 'utf8')) as { features: Array<{ geometry: Geometry }> }).features.map((f) => f.geometry);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
