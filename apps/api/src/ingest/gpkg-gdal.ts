// Test support (issue 29): GeoPackages built by GDAL's ogr2ogr from GeoJSON, and GDAL's own reading of them back in
// WGS84 (PROJ's reprojection), the independent reference the GeoPackage reader is checked against. Tests only.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

type Feature = { type: 'Feature'; properties: Record<string, unknown>; geometry: { type: string; coordinates: unknown } };

const offsetDeg = (lng: number, lat: number, east: number, north: number): number[] => [
  lng + east / (111_320 * Math.cos((lat * Math.PI) / 180)),
  lat + north / 110_574,
];

/**
 * Plots near (lng, lat), with a height on every position (Z): an irregular 7-vertex polygon, a square with a hole, a
 * MultiPolygon of two squares, and a point (a point plot).
 */
export function gpkgPlots(lng: number, lat: number): Feature[] {
  const z = (p: number[], h: number) => [p[0]!, p[1]!, h];
  const ring = (pts: number[][]) => [...pts, pts[0]!].map((p, i) => z(p, 100 + i));
  const square = (e: number, n: number, s: number) => [
    offsetDeg(lng, lat, e, n),
    offsetDeg(lng, lat, e + s, n),
    offsetDeg(lng, lat, e + s, n + s),
    offsetDeg(lng, lat, e, n + s),
  ];
  const irregular = [
    [0, 0],
    [250, 25],
    [320, 180],
    [220, 300],
    [50, 250],
    [-80, 120],
  ].map(([e, n]) => offsetDeg(lng, lat, e!, n!));
  return [
    { type: 'Feature', properties: { plot: 'Irregular', ref: 1 }, geometry: { type: 'Polygon', coordinates: [ring(irregular)] } },
    {
      type: 'Feature',
      properties: { plot: 'Holed', ref: 2 },
      geometry: { type: 'Polygon', coordinates: [ring(square(600, 0, 400)), ring(square(700, 100, 100).reverse())] },
    },
    {
      type: 'Feature',
      properties: { plot: 'Two parts', ref: 3 },
      geometry: { type: 'MultiPolygon', coordinates: [[ring(square(0, 600, 200))], [ring(square(400, 600, 150))]] },
    },
    { type: 'Feature', properties: { plot: 'Point plot', ref: 4 }, geometry: { type: 'Point', coordinates: z(offsetDeg(lng, lat, 900, 900), 7) } },
  ];
}

const run = (args: string[]) => execFileSync('ogr2ogr', args, { stdio: 'pipe' });

/**
 * The features written by ogr2ogr as a GeoPackage in EPSG:code (table "plots"; extra: more ogr2ogr options), and
 * GDAL's reading of that file back in EPSG:4326 (the reference), feature by feature.
 */
export function gdalGeoPackage(
  features: Feature[],
  code: number,
  extra: string[] = [],
): { gpkg: Buffer; wgs84: Array<{ type: string; coordinates: unknown }> } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `gpkg-${code}-`));
  try {
    const src = path.join(dir, 'plots.geojson');
    fs.writeFileSync(src, JSON.stringify({ type: 'FeatureCollection', features }));
    const gpkg = path.join(dir, 'plots.gpkg');
    run(['-f', 'GPKG', '-t_srs', `EPSG:${code}`, '-nln', 'plots', ...extra, gpkg, src]);
    const back = path.join(dir, 'back.geojson');
    run(['-f', 'GeoJSON', '-t_srs', 'EPSG:4326', '-lco', 'COORDINATE_PRECISION=12', '-lco', 'RFC7946=NO', back, gpkg]);
    const wgs84 = (JSON.parse(fs.readFileSync(back, 'utf8')) as { features: Array<{ geometry: { type: string; coordinates: unknown } }> }).features.map(
      (f) => f.geometry,
    );
    return { gpkg: fs.readFileSync(gpkg), wgs84 };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Every position of a geometry's coordinates, in order (x, y only). */
export function positions(coordinates: unknown): number[][] {
  const out: number[][] = [];
  const walk = (c: unknown) => {
    if (Array.isArray(c) && typeof c[0] === 'number') out.push([c[0], c[1] as number]);
    else if (Array.isArray(c)) c.forEach(walk);
  };
  walk(coordinates);
  return out;
}

/** Largest distance in metres between matching positions of two geometries (Infinity when their shapes differ). */
export function maxVertexDistanceM(a: { type: string; coordinates: unknown }, b: { type: string; coordinates: unknown }): number {
  const pa = positions(a.coordinates);
  const pb = positions(b.coordinates);
  if (a.type !== b.type || pa.length !== pb.length || JSON.stringify(shape(a.coordinates)) !== JSON.stringify(shape(b.coordinates))) return Infinity;
  let worst = 0;
  pa.forEach((p, i) => {
    const q = pb[i]!;
    const dx = (p[0]! - q[0]!) * 111_320 * Math.cos((p[1]! * Math.PI) / 180);
    const dy = (p[1]! - q[1]!) * 110_574;
    worst = Math.max(worst, Math.hypot(dx, dy));
  });
  return worst;
}

/** The nesting of a coordinates array (lengths at every level but the positions'). */
const shape = (c: unknown): unknown => (Array.isArray(c) && Array.isArray(c[0]) ? c.map(shape) : 'p');
