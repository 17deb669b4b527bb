// The analysis benchmark's synthetic data: seeded farms on a 150 m grid and operational areas, as csv, GeoJSON or a file.
import fs from 'node:fs';
import { createRng, type Rng } from '../lib/prng.js';

// ---------- synthetic data ----------
export const CENTER = [3.7717, 7.6466] as const;
export const M_LAT = 111_320;
export const M_LNG = M_LAT * Math.cos((CENTER[1] * Math.PI) / 180);
export const CELL = 150;
export const r7 = (x: number) => Math.round(x * 1e7) / 1e7;
export const toLngLat = (x: number, y: number): [number, number] => [r7(CENTER[0] + x / M_LNG), r7(CENTER[1] + y / M_LAT)];

export function star(rng: Rng, cx: number, cy: number, radius: number): Array<[number, number]> {
  const n = rng.int(5, 8);
  const start = rng.next() * Math.PI * 2;
  const pts: Array<[number, number]> = [];
  for (let i = 0; i < n; i++) {
    const t = start + (i * 2 * Math.PI) / n + (rng.next() - 0.5) * 0.4;
    const r = radius * (0.8 + rng.next() * 0.2);
    pts.push(toLngLat(cx + r * Math.cos(t), cy + r * Math.sin(t)));
  }
  pts.push(pts[0]!);
  return pts;
}

/**
 * What the in-process runs share: the upload (csv bytes), the registry farms (every 20th good farm) and the areas. The
 * rows themselves are not kept: the GeoJSON upload and the raw queries regenerate them from the seed, so the harness's
 * own memory stays out of the pipeline's peak RSS (it held ~100 MB of JS arrays and strings before).
 */
export type Generated = {
  csv: Buffer;
  registered: Array<Array<[number, number]>>;
  areas: Array<{ name: string; ring: Array<[number, number]> }>;
  side: number;
};

export type FarmRow = { i: number; name: string; coords: unknown; ring: Array<[number, number]> | null };

/** The synthetic rows one at a time (the same seeded sequence whether they are kept in memory or written to a file). */
export function* farmRows(rows: number, seed: number): Generator<FarmRow> {
  const rng = createRng(seed);
  const side = Math.ceil(Math.sqrt(rows));
  for (let i = 0; i < rows; i++) {
    const gx = (i % side) * CELL;
    const gy = Math.floor(i / side) * CELL;
    const roll = rng.next();
    let coords: unknown;
    let name = `Farm ${i + 1}`;
    let ring: Array<[number, number]> | null = null;
    if (roll < 0.08)
      ring = star(rng, gx + 70, gy, 45); // overlaps the neighbour to the east
    else if (roll < 0.09) {
      const [x, y] = toLngLat(gx, gy);
      coords = [
        [x, y],
        [x + 0.0005, y + 0.0005],
        [x + 0.0005, y],
        [x, y + 0.0005],
        [x, y],
      ]; // bow-tie
    } else if (roll < 0.095)
      coords = [
        [412345.5 + i, 934567.1],
        [412445.5 + i, 934567.1],
        [412445.5 + i, 934667.1],
      ]; // metres
    else if (roll < 0.1) {
      name = '';
      ring = star(rng, gx, gy, 45);
    } else if (roll < 0.11)
      ring = star(rng, gx, gy, 4); // below the minimum size
    else ring = star(rng, gx, gy, 40 + rng.next() * 20);
    if (ring) coords = ring;
    yield { i, name, coords, ring };
  }
}

export const CSV_HEADER = 'farm_name,farm_coordinates,operational_area_id,farm_ref';
export const csvLine = (r: FarmRow) => `${r.name},"${JSON.stringify(r.coords).replace(/"/g, '""')}",,R-${r.i + 1}`;

/** Operational areas on a 20×20 grid covering part of the farms' grid. */
export function areasFor(rows: number, areaCount: number): Generated['areas'] {
  const side = Math.ceil(Math.sqrt(rows));
  const g = Math.max(1, Math.round(Math.sqrt(areaCount)));
  const span = side * CELL;
  const cell = span / g;
  const areas: Generated['areas'] = [];
  for (let ix = 0; ix < g; ix++) {
    for (let iy = 0; iy < g; iy++) {
      const x0 = ix * cell - CELL / 2;
      const y0 = iy * cell - CELL / 2;
      const w = cell * 0.85;
      const ring = [toLngLat(x0, y0), toLngLat(x0 + w, y0), toLngLat(x0 + w, y0 + w), toLngLat(x0, y0 + w), toLngLat(x0, y0)];
      areas.push({ name: `Area ${ix}-${iy}`, ring });
    }
  }
  return areas;
}

/** Farms on a 150 m grid (8 % shifted onto a neighbour, ~3 % bad rows of several kinds), areas on a 20×20 grid covering part of it. */
export function generate(rows: number, areaCount: number, seed: number): Generated {
  const parts: Buffer[] = [];
  let pending: string[] = [CSV_HEADER];
  const registered: Generated['registered'] = [];
  for (const r of farmRows(rows, seed)) {
    if (r.ring && r.name && r.i % 20 === 0) registered.push(r.ring);
    pending.push(csvLine(r));
    if (pending.length >= 5000) {
      parts.push(Buffer.from(`${pending.join('\n')}\n`, 'utf8'));
      pending = [];
    }
  }
  if (pending.length > 0) parts.push(Buffer.from(`${pending.join('\n')}\n`, 'utf8'));
  return { csv: Buffer.concat(parts), registered, areas: areasFor(rows, areaCount), side: Math.ceil(Math.sqrt(rows)) };
}

/** The same rows as a GeoJSON FeatureCollection (issue 13): the ring as a Polygon, the other columns as properties. */
export function geojsonOf(rows: number, seed: number): Buffer {
  const parts: Buffer[] = [Buffer.from('{"type":"FeatureCollection","features":[\n')];
  let first = true;
  for (const r of farmRows(rows, seed)) {
    const f = JSON.stringify({
      type: 'Feature',
      properties: { farm_name: r.name, operational_area_id: '', farm_ref: `R-${r.i + 1}` },
      geometry: { type: 'Polygon', coordinates: [r.coords] },
    });
    parts.push(Buffer.from(first ? f : `,\n${f}`));
    first = false;
  }
  parts.push(Buffer.from('\n]}\n'));
  return Buffer.concat(parts);
}

/**
 * The same csv written to a file in a stream (a million rows are ~180 MB): returns its size and the registry farms (every
 * 20th good farm), without holding the rows.
 */
export async function generateToFile(rows: number, seed: number, file: string): Promise<{ bytes: number; registered: Array<Array<[number, number]>> }> {
  const out = fs.createWriteStream(file);
  const registered: Array<Array<[number, number]>> = [];
  let pending: string[] = [CSV_HEADER];
  const flush = async () => {
    if (!out.write(`${pending.join('\n')}\n`)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
    pending = [];
  };
  for (const r of farmRows(rows, seed)) {
    if (r.ring && r.name && r.i % 20 === 0) registered.push(r.ring);
    pending.push(csvLine(r));
    if (pending.length >= 5000) await flush();
  }
  await flush();
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  return { bytes: fs.statSync(file).size, registered };
}
