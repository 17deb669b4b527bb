// The sweep of docs/decisions/0097-proj-tie-break-for-datum-transformations.md: for every geographic CRS with two or
// more EPSG transformations to WGS 84 (rows of datum-transformations.json), the reader's position at the centre of each
// transformation's area against `cs2cs EPSG:<code> EPSG:4326` (PROJ's default). Prints the points farther than 0.05 m
// and their count.
// Run: cd apps/api && npx tsx src/ingest/crs-sweep.ts [--all: every point's distance, tab-separated, for comparing runs]
import { execFileSync } from 'node:child_process';
import { resolveEpsg, transformationAt, transformationsOf } from './crs.js';
import { DATUM_TRANSFORMATIONS } from './datum-transformations.js';

/** Metres between two WGS 84 longitude/latitude points (haversine on a 6371 km sphere, enough at these distances). */
export function metresBetween(a: number[], b: number[]): number {
  const r = Math.PI / 180;
  const dLat = (b[1]! - a[1]!) * r;
  const dLon = (b[0]! - a[0]!) * r;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a[1]! * r) * Math.cos(b[1]! * r) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371008.8 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** PROJ's default position in WGS 84 of longitude/latitude points on EPSG:<code> (cs2cs, traditional GIS order). */
export function cs2cs(code: number, points: number[][]): number[][] {
  const input = points.map((p) => `${p[0]} ${p[1]}`).join('\n') + '\n';
  const out = execFileSync('cs2cs', ['-f', '%.9f', `EPSG:${code}`, 'EPSG:4326'], {
    input,
    env: { ...process.env, PROJ_NETWORK: 'OFF' },
  }).toString('utf8');
  // cs2cs reads and writes in the CRS's axis order (latitude first for EPSG geographic CRSs).
  return out
    .trim()
    .split('\n')
    .map((l) => l.split(/\s+/).map(Number));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // Every row of a CRS with two or more rows, the reader's candidates or not (PROJ drops those outside the CRS's area).
  const rowsOf = (s: number) => DATUM_TRANSFORMATIONS.filter((r) => r[0] === s).map(([, , name, , , w, s0, e, n]) => ({ name, w, s: s0, e, n }));
  const sources = [...new Set(DATUM_TRANSFORMATIONS.map((r) => r[0]))].filter((s) => rowsOf(s).length >= 2);
  let total = 0;
  let off = 0;
  for (const source of sources) {
    const list = transformationsOf(source);
    const rows = rowsOf(source);
    const points = rows.map((t) => {
      const lon = t.w <= t.e ? (t.w + t.e) / 2 : (((t.w + t.e + 360) / 2 + 180) % 360) - 180;
      return [lon, (t.s + t.n) / 2];
    });
    let crs: ReturnType<typeof resolveEpsg>;
    try {
      crs = resolveEpsg(source);
    } catch {
      continue; // no transformation the reader can apply (a registry entry PostGIS cannot project)
    }
    const ref = cs2cs(
      source,
      points.map((p) => [p[1]!, p[0]!]),
    ).map((p) => [p[1]!, p[0]!]);
    points.forEach((p, i) => {
      total++;
      const ours = crs.toWgs84!(p);
      const d = metresBetween(ours, ref[i]!);
      if (process.argv.includes('--all')) console.log(`ALL\tEPSG:${source}\t${p[0]!.toFixed(3)},${p[1]!.toFixed(3)}\t${rows[i]!.name}\t${d.toFixed(4)}`);
      if (d > 0.05) {
        off++;
        const pick = transformationAt(list, p[0]!, p[1]!);
        console.log(`EPSG:${source} ${crs.name} at ${p[0]!.toFixed(3)},${p[1]!.toFixed(3)} (${rows[i]!.name}): ${d.toFixed(2)} m, ours ${pick?.name}`);
      }
    });
  }
  console.log(`${off} of ${total} points farther than 0.05 m from cs2cs`);
}
