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
  if (Math.abs(lat) <= 180 && Math.abs(lng) <= 90)
    return `${where} is out of range (latitude must be within ±90): longitude and latitude look swapped; send [longitude, latitude]`;
  if (Math.abs(lng) > 180 && Math.abs(lat) > 90)
    return `${where} is out of range (|longitude| ≤ 180, |latitude| ≤ 90): these look like metres; send WGS84 degrees`;
  return `${where} is out of range (|longitude| ≤ 180, |latitude| ≤ 90)`;
}

export type RingsResult = { ok: true; rings: PolygonRings } | { ok: false; message: string };

/**
 * How far a polygon may reach, in degrees of longitude and of latitude (its bounding box). The limits keep every polygon
 * well inside one hemisphere, where PostGIS's geography functions are defined (a ring around the globe, or an edge of
 * 180°, makes them fail), and they refuse what cannot be a farm or an operational area:
 * - a farm: 1° either way (about 110 km at the equator; the largest plantations are a few tens of km across);
 * - an operational area: 40° either way (a state, a country, or a region of several countries).
 * Rings that cross the antimeridian (±180°) are refused with a message saying so: coordinates are plain WGS84, so such a
 * farm is sent as two polygons, one on each side.
 */
export const POLYGON_SPAN_LIMITS = { farm: 1, operational_area: 40 } as const;
export type PolygonKind = keyof typeof POLYGON_SPAN_LIMITS;
const KIND_NAMES: Record<PolygonKind, string> = { farm: 'A farm', operational_area: 'An operational area' };

/** The span of a set of longitudes when the shortest way round may cross ±180° (the complement of the widest gap). */
function wrappedSpan(lngs: number[]): number {
  const sorted = [...new Set(lngs)].sort((a, b) => a - b);
  let widestGap = 360 - (sorted[sorted.length - 1]! - sorted[0]!);
  for (let i = 1; i < sorted.length; i++) widestGap = Math.max(widestGap, sorted[i]! - sorted[i - 1]!);
  return 360 - widestGap;
}

/** Says why a normalised polygon is too large for its kind, or null. */
export function extentProblem(rings: PolygonRings, kind: PolygonKind): string | null {
  const limit = POLYGON_SPAN_LIMITS[kind];
  let minLng = Infinity,
    maxLng = -Infinity,
    minLat = Infinity,
    maxLat = -Infinity;
  const positions = rings.flat();
  for (const [lng, lat] of positions) {
    if (lng < minLng) minLng = lng;
    if (lng > maxLng) maxLng = lng;
    if (lat < minLat) minLat = lat;
    if (lat > maxLat) maxLat = lat;
  }
  const lngSpan = maxLng - minLng;
  const latSpan = maxLat - minLat;
  const tooLarge = (lng: number) =>
    `${KIND_NAMES[kind]} may span at most ${limit}° of longitude and of latitude (this one spans ${+lng.toFixed(4)}° by ${+latSpan.toFixed(4)}°)`;
  if (latSpan > limit) return tooLarge(lngSpan);
  if (lngSpan > limit) {
    const wrapped = wrappedSpan(positions.map((p) => p[0]));
    if (lngSpan > 180 && wrapped <= limit) {
      return `${KIND_NAMES[kind]} may not cross the antimeridian (longitude ±180°): send it as two polygons, one on each side`;
    }
    return tooLarge(lngSpan);
  }
  return null;
}

/** Normalises one polygon input to closed rings, or says what is wrong with it. Pure: no geometry engine involved. */
export function normalizePolygonInput(input: unknown, kind?: PolygonKind): RingsResult {
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
      if (!isPosition(p))
        return { ok: false, message: `Position ${pi + 1}${ri > 0 ? ` of ring ${ri + 1}` : ''} is not a [longitude, latitude] pair of numbers` };
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
  const tooLarge = kind ? extentProblem(rings, kind) : null;
  if (tooLarge) return { ok: false, message: tooLarge };
  return { ok: true, rings };
}

/** The coordinates field of a write: normalised to closed rings, within the kind's extent, with the problem named on failure. */
export const polygonCoordinates = (kind: PolygonKind) =>
  z
    .unknown()
    .transform((v, ctx): PolygonRings => {
      const r = normalizePolygonInput(v, kind);
      if (!r.ok) {
        ctx.addIssue({ code: 'custom', message: r.message });
        return z.NEVER;
      }
      return r.rings;
    })
    .meta({
      description:
        'A list of [longitude, latitude] pairs (at least 3 distinct; closed automatically), a list of rings (exterior first, then holes), or a GeoJSON Polygon',
      example: [
        [3.7717, 7.6466],
        [3.7727, 7.6466],
        [3.7727, 7.6476],
      ],
    });

export const lngLatPair = z.tuple([z.number(), z.number()]);
export const polygonGeoJson = z.object({ type: z.literal('Polygon'), coordinates: z.array(z.array(lngLatPair)) });
