// Test support (issue 28 §1): builds projected files with GDAL's ogr2ogr and reads PROJ's own reprojection of them,
// the independent reference the CRS handling is checked against. Used by tests only; ogr2ogr comes from Debian's
// gdal-bin (installed by .ci/run).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { zipSync } from 'fflate';

/** Whether ogr2ogr (and gdalsrsinfo) can be run here. */
export function hasOgr2ogr(): boolean {
  try {
    execFileSync('ogr2ogr', ['--version'], { stdio: 'pipe' });
    execFileSync('gdalsrsinfo', ['--version'], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

type Polygon = { type: 'Polygon'; coordinates: number[][][] };

/** Two plots near (lng, lat): a 7-vertex ring of ~250 m and a ~400 m square with a hole, 0.05° apart. */
export function plotsNear(lng: number, lat: number): Array<{ properties: Record<string, unknown>; geometry: Polygon }> {
  const d = 0.0025;
  const ring = [
    [lng, lat],
    [lng + d, lat + d * 0.1],
    [lng + d * 1.3, lat + d * 0.7],
    [lng + d * 0.9, lat + d * 1.2],
    [lng + d * 0.2, lat + d],
    [lng - d * 0.3, lat + d * 0.5],
    [lng, lat],
  ];
  const x = lng + 0.05;
  const y = lat + 0.03;
  const s = 0.004;
  const outer = [
    [x, y],
    [x + s, y],
    [x + s, y + s],
    [x, y + s],
    [x, y],
  ];
  const hole = [
    [x + s / 4, y + s / 4],
    [x + s / 4, y + s / 2],
    [x + s / 2, y + s / 2],
    [x + s / 2, y + s / 4],
    [x + s / 4, y + s / 4],
  ];
  return [
    { properties: { plot: 'A', ref: 1 }, geometry: { type: 'Polygon', coordinates: [ring] } },
    { properties: { plot: 'B', ref: 2 }, geometry: { type: 'Polygon', coordinates: [outer, hole] } },
  ];
}

const run = (args: string[], config: string[] = []) => execFileSync('ogr2ogr', [...config, ...args], { stdio: 'pipe' });

/**
 * The plots written as a Shapefile in EPSG:code by ogr2ogr (the .prj is the ESRI-flavoured WKT GDAL writes, without
 * AUTHORITY), and PROJ's reprojection of that very Shapefile back to EPSG:4326, twice: with PROJ's default choice for
 * the code (`default`: the most accurate operation whose area holds the point, grids included when installed) and with
 * the code's projection and Helmert (towgs84) transformation given to PROJ as a definition (`helmert`: what the
 * registry holds, applied by PROJ). Also the OGC WKT1 of the code (with AUTHORITY), as `gdalsrsinfo -o wkt1` prints it.
 */
export function gdalShapefile(code: number, plots: ReturnType<typeof plotsNear>, helmertDefinition: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `crs-${code}-`));
  try {
    const src = path.join(dir, 'plots.geojson');
    fs.writeFileSync(src, JSON.stringify({ type: 'FeatureCollection', features: plots.map((p) => ({ type: 'Feature', ...p })) }));
    const shp = path.join(dir, 'shp');
    fs.mkdirSync(shp);
    run(['-f', 'ESRI Shapefile', '-t_srs', `EPSG:${code}`, path.join(shp, 'plots.shp'), src]);
    const back = (name: string, source: string) => {
      const out = path.join(dir, name);
      run(['-f', 'GeoJSON', '-s_srs', source, '-t_srs', 'EPSG:4326', '-lco', 'COORDINATE_PRECISION=12', out, path.join(shp, 'plots.shp')]);
      return (JSON.parse(fs.readFileSync(out, 'utf8')) as { features: Array<{ geometry: Polygon }> }).features.map((f) => f.geometry);
    };
    const files: Record<string, Uint8Array> = {};
    for (const f of fs.readdirSync(shp)) files[`plots/${f}`] = new Uint8Array(fs.readFileSync(path.join(shp, f)));
    const ogcWkt = execFileSync('gdalsrsinfo', ['-o', 'wkt1', `EPSG:${code}`], { stdio: 'pipe' })
      .toString('utf8')
      .trim();
    return {
      esriPrj: Buffer.from(files['plots/plots.prj'] ?? new Uint8Array()).toString('utf8'),
      ogcWkt,
      zip: (prj: string) => Buffer.from(zipSync({ ...files, 'plots/plots.prj': new TextEncoder().encode(prj) })),
      default: back('default.geojson', `EPSG:${code}`),
      helmert: back('helmert.geojson', helmertDefinition),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Largest distance in metres between matching vertices of two lists of polygons (rings and vertices in the same order). */
export function maxDistanceM(a: Polygon[], b: Polygon[]): number {
  if (a.length !== b.length) return Infinity;
  let worst = 0;
  a.forEach((pa, i) => {
    const pb = b[i]!;
    if (pa.coordinates.length !== pb.coordinates.length) worst = Infinity;
    pa.coordinates.forEach((ring, r) => {
      const other = pb.coordinates[r] ?? [];
      if (ring.length !== other.length) worst = Infinity;
      ring.forEach((p, k) => {
        const q = other[k];
        if (!q) return;
        const lat = (p[1]! * Math.PI) / 180;
        const dx = (p[0]! - q[0]!) * 111_320 * Math.cos(lat);
        const dy = (p[1]! - q[1]!) * 110_574;
        worst = Math.max(worst, Math.hypot(dx, dy));
      });
    });
  });
  return worst;
}
