// Web Mercator tile arithmetic and polygon clipping for the embedded engine's tiles (the PostgreSQL path does the same
// in PostGIS: ST_TileEnvelope, ST_AsMVTGeom).
export const EXTENT = 4096;
export const BUFFER = 64;

/** lng/lat → tile pixel coordinates (0..EXTENT inside the tile, y down). */
export function projector(z: number, x: number, y: number): (lng: number, lat: number) => [number, number] {
  const n = 2 ** z;
  return (lng, lat) => {
    const s = Math.sin((Math.max(-85.0511, Math.min(85.0511, lat)) * Math.PI) / 180);
    const wx = ((lng + 180) / 360) * n;
    const wy = (0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * n;
    return [Math.round((wx - x) * EXTENT), Math.round((wy - y) * EXTENT)];
  };
}

/** The tile's lng/lat bounds, widened by the buffer: [minLng, minLat, maxLng, maxLat]. */
export function tileBounds(z: number, x: number, y: number): [number, number, number, number] {
  const n = 2 ** z;
  const pad = BUFFER / EXTENT;
  const lng = (tx: number) => (tx / n) * 360 - 180;
  const lat = (ty: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * ty) / n))) * 180) / Math.PI;
  return [Math.max(-180, lng(x - pad)), Math.max(-85.0511, lat(y + 1 + pad)), Math.min(180, lng(x + 1 + pad)), Math.min(85.0511, lat(y - pad))];
}

type Pt = [number, number];

/** Sutherland–Hodgman against the buffered tile square; keeps the ring's orientation. */
export function clipRing(ring: readonly Pt[]): Pt[] {
  const lo = -BUFFER;
  const hi = EXTENT + BUFFER;
  const edges: Array<{ inside: (p: Pt) => boolean; cut: (a: Pt, b: Pt) => Pt }> = [
    { inside: (p) => p[0] >= lo, cut: (a, b) => [lo, Math.round(a[1] + ((b[1] - a[1]) * (lo - a[0])) / (b[0] - a[0]))] },
    { inside: (p) => p[0] <= hi, cut: (a, b) => [hi, Math.round(a[1] + ((b[1] - a[1]) * (hi - a[0])) / (b[0] - a[0]))] },
    { inside: (p) => p[1] >= lo, cut: (a, b) => [Math.round(a[0] + ((b[0] - a[0]) * (lo - a[1])) / (b[1] - a[1])), lo] },
    { inside: (p) => p[1] <= hi, cut: (a, b) => [Math.round(a[0] + ((b[0] - a[0]) * (hi - a[1])) / (b[1] - a[1])), hi] },
  ];
  let out: Pt[] = ring.slice();
  for (const e of edges) {
    const input = out;
    out = [];
    for (let i = 0; i < input.length; i++) {
      const cur = input[i]!;
      const prev = input[(i + input.length - 1) % input.length]!;
      if (e.inside(cur)) {
        if (!e.inside(prev)) out.push(e.cut(prev, cur));
        out.push(cur);
      } else if (e.inside(prev)) out.push(e.cut(prev, cur));
    }
    if (!out.length) return out;
  }
  return out;
}

/** Drops repeated vertices (after rounding) and the closing vertex; null when fewer than 3 remain. */
export function cleanRing(ring: readonly Pt[]): Pt[] | null {
  const out: Pt[] = [];
  for (const p of ring) {
    const last = out[out.length - 1];
    if (!last || last[0] !== p[0] || last[1] !== p[1]) out.push(p);
  }
  if (out.length > 1 && out[0]![0] === out[out.length - 1]![0] && out[0]![1] === out[out.length - 1]![1]) out.pop();
  return out.length >= 3 ? out : null;
}

/** Twice the signed area in tile coordinates (y down): positive for the exterior rings MVT expects. */
export function signedArea(ring: readonly Pt[]): number {
  let a = 0;
  for (let i = 0; i < ring.length; i++) {
    const [x1, y1] = ring[i]!;
    const [x2, y2] = ring[(i + 1) % ring.length]!;
    a += x1 * y2 - x2 * y1;
  }
  return a;
}

/** x and y (each below 2^26) interleaved as in farm_cell_spread (SQL): x in the even bits, y in the odd ones. */
export function interleave(x: number, y: number): number {
  let out = 0;
  for (let bit = 0; bit < 26; bit++) out += ((x >> bit) & 1) * 2 ** (2 * bit) + ((y >> bit) & 1) * 2 ** (2 * bit + 1);
  return out;
}

/**
 * Which cells of farm_tile_cells a cluster tile reads: the even level z+5 or z+6, the tile's range of Morton codes at
 * that level, and the bits to drop (0 or 2) to group them into clusters of level z+5 (32 × 32 a tile).
 */
export function clusterCells(z: number, x: number, y: number): { level: number; lo: number; hi: number; shift: number } {
  const level = z % 2 === 0 ? z + 6 : z + 5;
  const k = level - z;
  const t = interleave(x, y);
  return { level, lo: t * 4 ** k, hi: (t + 1) * 4 ** k - 1, shift: 2 * (level - (z + 5)) };
}
