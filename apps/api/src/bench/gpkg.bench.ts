// `npm run bench:gpkg -- [--features 46000] [--vertices 50] [--code 32631]` (the built
// dist/bench/gpkg.bench.js): the GeoPackage reader's cost (docs/decisions/0091-geopackage-reader.md). Builds a GeoPackage
// of --features polygons of --vertices vertices with ogr2ogr (projected: every vertex is reprojected), then reads it
// through readAnalysisFile (the path a layer load and an analysis take) in a fresh process, three times, printing the
// file size, the time, the process's RSS before and its peak (VmHWM), and the RSS after a GC.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readAnalysisFile } from '../ingest/read.js';

const args = process.argv.slice(2);
const arg = (name: string, dflt: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1]! : dflt;
};
const mb = (bytes: number) => (bytes / 1048576).toFixed(1);
const peakRss = () => Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) * 1024;

async function child(file: string): Promise<void> {
  const before = process.memoryUsage().rss;
  const started = performance.now();
  let n = 0;
  await readAnalysisFile(file, 'bench.gpkg', { maxRows: 100_000, window: 500 }, async (rows) => void (n += rows.length));
  const ms = performance.now() - started;
  const peak = peakRss();
  (globalThis as { gc?: () => void }).gc?.();
  console.log(JSON.stringify({ features: n, ms: Math.round(ms), rssBeforeMb: mb(before), peakRssMb: mb(peak), rssAfterGcMb: mb(process.memoryUsage().rss) }));
}

/** A GeoJSON file of the polygons (WGS84), in a new directory; resolves once it is written. */
async function build(features: number, vertices: number): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpkg-bench-'));
  const src = path.join(dir, 'plots.geojson');
  const out = fs.createWriteStream(src);
  out.write('{"type":"FeatureCollection","features":[\n');
  for (let i = 0; i < features; i++) {
    const lng = 2 + (i % 300) * 0.01;
    const lat = 45 + Math.floor(i / 300) * 0.01;
    const ring: number[][] = [];
    for (let k = 0; k < vertices; k++) {
      const a = (2 * Math.PI * k) / vertices;
      const r = 0.003 * (1 + 0.2 * Math.sin(5 * a));
      ring.push([lng + r * Math.cos(a), lat + r * Math.sin(a)]);
    }
    ring.push(ring[0]!);
    out.write(
      `${i ? ',' : ''}{"type":"Feature","properties":{"name":"plot ${i}","ref":${i},"area_ha":${(i % 97) / 10}},"geometry":{"type":"Polygon","coordinates":[${JSON.stringify(ring)}]}}\n`,
    );
  }
  await new Promise<void>((resolve, reject) => out.on('error', reject).end(']}', resolve));
  return dir;
}

if (args[0] === '--child') await child(args[1]!);
else {
  const features = Number(arg('features', '46000'));
  const vertices = Number(arg('vertices', '50'));
  const code = Number(arg('code', '32631'));
  const dir = await build(features, vertices);
  try {
    const gpkg = path.join(dir, 'plots.gpkg');
    execFileSync('ogr2ogr', ['-f', 'GPKG', '-t_srs', `EPSG:${code}`, gpkg, path.join(dir, 'plots.geojson')], { stdio: 'pipe' });
    console.log(
      `GeoPackage: ${features} polygons of ${vertices} vertices in EPSG:${code}, ${mb(fs.statSync(gpkg).size)} MB; load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    for (let round = 1; round <= 3; round++) {
      const r = spawnSync(process.execPath, [...process.execArgv, '--expose-gc', process.argv[1]!, '--child', gpkg], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(r.stderr);
      console.log(`run ${round}: ${r.stdout.trim()}`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
