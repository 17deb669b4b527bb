// Polygon input as the registry accepts it: [[lng, lat], …], a list of rings (outer first, then holes) or a GeoJSON Polygon.
// The schema normalises (closes rings, drops consecutive repeats) and names the first problem; ST_IsValid runs on the server.
import { z } from 'zod';

/** [longitude, latitude] in WGS84 degrees. */
export type LngLat = [number, number];
/** Closed rings: the exterior first, then holes. */
export type PolygonRings = LngLat[][];

const MAX_RINGS = 50;
const MAX_POSITIONS = 10_000;

const isNumberArray = (v: unknown): v is number[] => Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'number');
const isPosition = (v: unknown): boolean => isNumberArray(v) && (v.length === 2 || v.length === 3) && v.every((x) => Number.isFinite(x));

/** Explains an out-of-range position: swapped axes or projected metres are the usual causes. */
function rangeProblem(p: LngLat, index: number, ring: number): string | null {
  const [lng, lat] = p;
  if (Math.abs(lng) <= 180 && Math.abs(lat) <= 90) return null;
  const where = `Position ${index + 1}${ring > 0 ? ` of ring ${ring + 1}` : ''} [${lng}, ${lat}]`;
  if (Math.abs(lat) <= 180 && Math.abs(lng) <= 90) return `${where} is out of range (latitude must be within ±90): longitude and latitude look swapped; send [longitude, latitude]`;
  if (Math.abs(lng) > 180 && Math.abs(lat) > 90) return `${where} is out of range (|longitude| ≤ 180, |latitude| ≤ 90): these look like metres; send WGS84 degrees`;
  return `${where} is out of range (|longitude| ≤ 180, |latitude| ≤ 90)`;
}

export type RingsResult = { ok: true; rings: PolygonRings } | { ok: false; message: string };

/** Normalises one polygon input to closed rings, or says what is wrong with it. Pure: no geometry engine involved. */
export function normalizePolygonInput(input: unknown): RingsResult {
  let value = input;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return { ok: false, message: 'Coordinates are not readable: send a JSON list of [longitude, latitude] pairs' };
    }
  }
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const o = value as { type?: unknown; coordinates?: unknown };
    if (o.type !== 'Polygon') return { ok: false, message: 'Only a GeoJSON Polygon (or a list of [longitude, latitude] pairs) is accepted' };
    value = o.coordinates;
  }
  if (!Array.isArray(value) || value.length === 0) return { ok: false, message: 'Coordinates are required: a list of [longitude, latitude] pairs' };
  const rawRings: unknown[] = isNumberArray(value[0]) ? [value] : value;
  if (rawRings.length > MAX_RINGS) return { ok: false, message: `A polygon may have at most ${MAX_RINGS} rings` };
  const rings: PolygonRings = [];
  let total = 0;
  for (const [ri, raw] of rawRings.entries()) {
    if (!Array.isArray(raw)) return { ok: false, message: `Ring ${ri + 1} is not a list of [longitude, latitude] pairs` };
    total += raw.length;
    if (total > MAX_POSITIONS) return { ok: false, message: `A polygon may have at most ${MAX_POSITIONS} positions` };
    const ring: LngLat[] = [];
    for (const [pi, p] of raw.entries()) {
      if (!isPosition(p)) return { ok: false, message: `Position ${pi + 1}${ri > 0 ? ` of ring ${ri + 1}` : ''} is not a [longitude, latitude] pair of numbers` };
      const pos: LngLat = [(p as number[])[0]!, (p as number[])[1]!];
      const range = rangeProblem(pos, pi, ri);
      if (range) return { ok: false, message: range };
      const last = ring[ring.length - 1];
      if (!last || last[0] !== pos[0] || last[1] !== pos[1]) ring.push(pos);
    }
    const first = ring[0];
    const last = ring[ring.length - 1];
    if (first && last && ring.length > 1 && first[0] === last[0] && first[1] === last[1]) ring.pop();
    const distinct = new Set(ring.map(([x, y]) => `${x},${y}`)).size;
    if (distinct < 3) {
      return { ok: false, message: `${ri === 0 ? 'A polygon' : `Ring ${ri + 1}`} needs at least 3 distinct positions (got ${distinct})` };
    }
    ring.push([ring[0]![0], ring[0]![1]]);
    rings.push(ring);
  }
  return { ok: true, rings };
}

/** The coordinates field of a write: normalised to closed rings, with the problem named on failure. */
export const polygonCoordinates = z
  .unknown()
  .transform((v, ctx): PolygonRings => {
    const r = normalizePolygonInput(v);
    if (!r.ok) {
      ctx.addIssue({ code: 'custom', message: r.message });
      return z.NEVER;
    }
    return r.rings;
  })
  .meta({
    description: 'A list of [longitude, latitude] pairs (at least 3 distinct; closed automatically), a list of rings (exterior first, then holes), or a GeoJSON Polygon',
    example: [
      [3.7717, 7.6466],
      [3.7727, 7.6466],
      [3.7727, 7.6476],
    ],
  });

export const lngLatPair = z.tuple([z.number(), z.number()]);
export const polygonGeoJson = z.object({ type: z.literal('Polygon'), coordinates: z.array(z.array(lngLatPair)) });
