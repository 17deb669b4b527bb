// The independent references the real-world check compares the API with: GDAL (ogr2ogr reads the file and reprojects to
// WGS 84) and native PostGIS (the file loaded by ogr2ogr, areas on the spheroid), and the distance and shape measures
// between the API's polygons and theirs.
/* eslint-disable @typescript-eslint/no-explicit-any -- GDAL's and the API's JSON are read untyped, as any client would */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type pg from 'pg';

export type Ring = Array<[number, number]>;
export type Polys = Ring[][];

/** A GeoJSON geometry as polygons of rings (a Point is one ring of one position); consecutive repeated positions dropped. */
export function polygonsOf(g: any, atApiPrecision = false): Polys {
  if (!g) return [];
  // The API sends 7 decimals (ST_AsGeoJSON(geom, 7)): two of GDAL's positions closer than that are one position there.
  const key = (p: number[]) => (atApiPrecision ? `${p[0]!.toFixed(7)} ${p[1]!.toFixed(7)}` : `${p[0]} ${p[1]}`);
  const clean = (ring: number[][]): Ring => {
    const out: Ring = [];
    for (const p of ring) {
      const last = out[out.length - 1];
      if (!last || key(last) !== key(p)) out.push([p[0]!, p[1]!]);
    }
    // closed for comparison: the platform closes an open ring (ring_closed), GDAL keeps it as written
    if (out.length > 1 && (out[0]![0] !== out[out.length - 1]![0] || out[0]![1] !== out[out.length - 1]![1])) out.push([out[0]![0], out[0]![1]]);
    return out;
  };
  switch (g.type) {
    case 'Point':
      return [[[[g.coordinates[0], g.coordinates[1]]]]];
    case 'Polygon':
      return [g.coordinates.map(clean)];
    case 'MultiPolygon':
      return g.coordinates.map((p: number[][][]) => p.map(clean));
    case 'GeometryCollection':
      return g.geometries.flatMap((x: any) => polygonsOf(x, atApiPrecision));
    default:
      return [];
  }
}

/** Metres between two nearby lon/lat positions on the WGS 84 ellipsoid (local radii of curvature). */
export function metres(a: [number, number], b: [number, number]): number {
  const lat = (((a[1] + b[1]) / 2) * Math.PI) / 180;
  const e2 = 0.00669437999014;
  const w = Math.sqrt(1 - e2 * Math.sin(lat) ** 2);
  const M = (6378137 * (1 - e2)) / w ** 3;
  const N = 6378137 / w;
  let dLon = b[0] - a[0];
  if (dLon > 180) dLon -= 360;
  if (dLon < -180) dLon += 360;
  const dx = ((dLon * Math.PI) / 180) * N * Math.cos(lat);
  const dy = (((b[1] - a[1]) * Math.PI) / 180) * M;
  return Math.hypot(dx, dy);
}

/**
 * The worst vertex distance between the platform's geometry and GDAL's: position by position when both have the same
 * polygons, rings and vertex counts (same order), else (structure differs) the larger of the two one-sided nearest-vertex
 * distances, reported as such.
 */
export function positionDelta(mine: Polys, theirs: Polys): { m: number; sameShape: boolean } {
  const same = mine.length === theirs.length && mine.every((p, i) => p.length === theirs[i]!.length && p.every((r, j) => r.length === theirs[i]![j]!.length));
  if (same) {
    let worst = 0;
    mine.forEach((p, i) => p.forEach((r, j) => r.forEach((v, k) => (worst = Math.max(worst, metres(v, theirs[i]![j]![k]!))))));
    return { m: worst, sameShape: true };
  }
  const a = mine.flat(2);
  const b = theirs.flat(2);
  const oneSided = (xs: Ring, ys: Ring) =>
    xs.reduce(
      (w, x) =>
        Math.max(
          w,
          ys.reduce((n, y) => Math.min(n, metres(x, y)), Infinity),
        ),
      0,
    );
  return { m: a.length === 0 || b.length === 0 ? Infinity : Math.max(oneSided(a, b), oneSided(b, a)), sameShape: false };
}

/** The source GDAL reads for an upload: a Shapefile inside a zip through /vsizip/, a KMZ through /vsizip/ too. */
export function gdalSource(file: string): string {
  if (/\.zip$/i.test(file)) {
    const shp = execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' })
      .split('\n')
      .find((n) => /\.shp$/i.test(n));
    if (!shp) throw new Error(`${path.basename(file)}: no .shp in the zip`);
    return `/vsizip/${file}/${shp}`;
  }
  if (/\.kmz$/i.test(file)) return `/vsizip/${file}`;
  return file;
}

/** GDAL/PROJ's reprojection of the file to EPSG:4326 (lon/lat), as GeoJSON features in file order. */
export function gdalFeatures(src: string): any[] {
  const out = execFileSync('ogr2ogr', ['-f', 'GeoJSON', '-t_srs', 'EPSG:4326', '-lco', 'RFC7946=NO', '-lco', 'COORDINATE_PRECISION=12', '/vsistdout/', src], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return JSON.parse(out).features as any[];
}

export type PgRow = { n: number; srid: number; area: number | null; noise: number; valid: boolean; reason: string | null };

/**
 * PostGIS's own repeatability of a geodesic area: the same polygon moved by 1e-13, 3e-13 and 1e-12 degrees (0.01 to 0.1 µm) four ways each. For small
 * parcels the spheroidal area's rounding is larger than 1e-6 of the area (a 4 m² parcel's area moves by 2e-5 m² for a
 * 1e-13-degree move of its vertices, and PostGIS 3.3 and 3.6 answer 7e-7 apart for the same bytes); an area difference
 * within twice this spread is PostGIS disagreeing with itself, counted apart ("within PostGIS's own noise").
 */
export const NOISE_SHIFTS = [1e-13, 3e-13, 1e-12].flatMap((d) => [
  [d, 0],
  [0, d],
  [-d, d],
  [d, -d],
]);

/** The file loaded by ogr2ogr into the scratch database in its own CRS; PostGIS's reprojection, validity and geodesic area per row. */
export async function postgisRows(client: pg.Client, dbUrl: string, src: string, table: string): Promise<PgRow[]> {
  const u = new URL(dbUrl);
  const conn = `PG:host=${u.hostname} port=${u.port || 5432} dbname=${u.pathname.slice(1)} user=${decodeURIComponent(u.username)}${u.password ? ` password=${decodeURIComponent(u.password)}` : ''}`;
  // Rows keep the file's order: ogr2ogr numbers them from 1 as it reads them (fid), which is the platform's row_number.
  execFileSync(
    'ogr2ogr',
    [
      '-f',
      'PostgreSQL',
      conn,
      src,
      '-nln',
      table,
      '-lco',
      'GEOMETRY_NAME=geom',
      '-lco',
      'FID=fid',
      '-lco',
      'SPATIAL_INDEX=NONE',
      '-lco',
      'PRECISION=NO',
      '-nlt',
      'GEOMETRY',
      '-overwrite',
    ],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  const res = await client.query(`
    SELECT fid AS n, ST_SRID(geom) AS srid, ST_IsValid(t) AS valid, CASE WHEN NOT ST_IsValid(t) THEN ST_IsValidReason(t) END AS reason,
           a AS area, greatest(${NOISE_SHIFTS.map(([x, y]) => `abs(ST_Area(ST_Translate(t, ${x}, ${y})::geography) - a)`).join(', ')}) AS noise
      FROM (SELECT fid, geom, t, ST_Area(t::geography) AS a FROM (SELECT fid, geom, ST_Transform(geom, 4326) AS t FROM "${table}") y) x ORDER BY fid`);
  return res.rows.map((r: any) => ({
    n: Number(r.n),
    srid: Number(r.srid),
    area: r.area === null ? null : Number(r.area),
    noise: Number(r.noise ?? 0),
    valid: r.valid,
    reason: r.reason,
  }));
}
