// GeoPackage geometry blobs (OGC 12-128r19 §2.1.3) → GeoJSON geometries, in the layer's own CRS. A blob is the "GP"
// header (magic, version, flags with the envelope indicator, the empty bit and the header's byte order, srs_id, the
// envelope) followed by standard WKB; ISO Z / M / ZM type codes (1000s) and EWKB's high bits are both read, and only x and
// y are kept. Polygon, MultiPolygon and Point become GeoJSON; other kinds are named (their type, no coordinates) for the
// row check to refuse, as the Shapefile reader does. A blob that cannot be read is a BadBlob saying why.

/** A geometry blob that is not a GeoPackage geometry (the message says why). */
export class BadBlob extends Error {}

export type GeoJsonGeometry = { type: string; coordinates?: unknown; geometries?: unknown } | null;

/** Envelope sizes by the flags' indicator (bits 1–3): none, xy, xyz, xym, xyzm. */
const ENVELOPE_BYTES = [0, 32, 48, 48, 64];

const NAMES: Record<number, string> = {
  1: 'Point',
  2: 'LineString',
  3: 'Polygon',
  4: 'MultiPoint',
  5: 'MultiLineString',
  6: 'MultiPolygon',
  7: 'GeometryCollection',
  8: 'CircularString',
  9: 'CompoundCurve',
  10: 'CurvePolygon',
  11: 'MultiCurve',
  12: 'MultiSurface',
  15: 'PolyhedralSurface',
  16: 'TIN',
  17: 'Triangle',
};

/** A bounds-checked reader of one WKB geometry. */
class Wkb {
  private o: number;
  private readonly v: DataView;
  constructor(
    private readonly b: Uint8Array,
    start: number,
    private readonly project: ((p: number[]) => number[]) | null,
  ) {
    this.o = start;
    this.v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  }

  private need(n: number): void {
    if (this.o + n > this.b.length) throw new BadBlob(`the WKB ends early (byte ${this.b.length} of ${this.o + n})`);
  }

  /** A geometry's header: its byte order, base type (1–17) and the number of values per position. */
  header(): { le: boolean; base: number; dims: number } {
    this.need(5);
    const order = this.b[this.o]!;
    if (order !== 0 && order !== 1) throw new BadBlob(`the WKB byte order is ${order}, not 0 or 1`);
    const le = order === 1;
    const raw = this.v.getUint32(this.o + 1, le);
    this.o += 5;
    // EWKB (PostGIS) flags in the high bits; ISO codes add 1000 (Z), 2000 (M) or 3000 (ZM).
    let z = (raw & 0x80000000) !== 0;
    let m = (raw & 0x40000000) !== 0;
    if (raw & 0x20000000) {
      this.need(4);
      this.o += 4; // an EWKB SRID, which the GeoPackage header's srs_id overrides
    }
    const code = raw & 0x0fffffff;
    const iso = Math.floor(code / 1000);
    const base = code % 1000;
    if (iso > 3 || !NAMES[base]) throw new BadBlob(`the WKB geometry type ${code} is not one WKB defines`);
    if (iso === 1 || iso === 3) z = true;
    if (iso === 2 || iso === 3) m = true;
    return { le, base, dims: 2 + (z ? 1 : 0) + (m ? 1 : 0) };
  }

  count(le: boolean, each: number): number {
    this.need(4);
    const n = this.v.getUint32(this.o, le);
    this.o += 4;
    // Each item takes at least `each` bytes: a count beyond what is left is damage, not an allocation to attempt.
    if (n * each > this.b.length - this.o) throw new BadBlob(`the WKB counts ${n} items but ${this.b.length - this.o} bytes are left`);
    return n;
  }

  position(le: boolean, dims: number): number[] {
    this.need(8 * dims);
    const p = [this.v.getFloat64(this.o, le), this.v.getFloat64(this.o + 8, le)];
    this.o += 8 * dims;
    return this.project && Number.isFinite(p[0]) && Number.isFinite(p[1]) ? this.project(p) : p;
  }

  ring(le: boolean, dims: number): number[][] {
    const n = this.count(le, 8 * dims);
    const out: number[][] = new Array<number[]>(n);
    for (let i = 0; i < n; i++) out[i] = this.position(le, dims);
    return out;
  }

  polygonBody(le: boolean, dims: number): number[][][] {
    const n = this.count(le, 4);
    const out: number[][][] = [];
    for (let i = 0; i < n; i++) out.push(this.ring(le, dims));
    return out;
  }

  /** One geometry: Point, Polygon and MultiPolygon read; any other kind named, without coordinates. */
  geometry(): GeoJsonGeometry {
    const { le, base, dims } = this.header();
    if (base === 1) {
      const p = this.position(le, dims);
      // POINT EMPTY is written as NaN NaN.
      return Number.isNaN(p[0]) && Number.isNaN(p[1]) ? null : { type: 'Point', coordinates: p };
    }
    if (base === 3) {
      const rings = this.polygonBody(le, dims);
      return rings.length === 0 ? null : { type: 'Polygon', coordinates: rings };
    }
    if (base === 6) {
      const n = this.count(le, 9);
      const parts: number[][][][] = [];
      for (let i = 0; i < n; i++) {
        const h = this.header();
        if (h.base !== 3) throw new BadBlob(`part ${i + 1} of the MultiPolygon is a ${NAMES[h.base]}, not a Polygon`);
        parts.push(this.polygonBody(h.le, h.dims));
      }
      return parts.length === 0 ? null : { type: 'MultiPolygon', coordinates: parts };
    }
    if (base === 7) return { type: 'GeometryCollection', geometries: [] };
    return { type: NAMES[base]!, coordinates: [] };
  }
}

/**
 * A GeoPackage geometry blob → its GeoJSON geometry (null: empty), each position through `project` as it is read (null:
 * as stored), and the srs_id its header gives. Throws BadBlob.
 */
export function readGpkgGeometry(blob: unknown, project: ((p: number[]) => number[]) | null = null): { geometry: GeoJsonGeometry; srsId: number | null } {
  if (blob === null || blob === undefined) return { geometry: null, srsId: null };
  if (!(blob instanceof Uint8Array)) throw new BadBlob(`the geometry column holds ${typeof blob === 'string' ? 'text' : typeof blob}, not a geometry blob`);
  if (blob.length < 8 || blob[0] !== 0x47 || blob[1] !== 0x50) throw new BadBlob('the blob does not start with the GeoPackage "GP" header');
  if (blob[2] !== 0) throw new BadBlob(`the GeoPackage geometry version is ${blob[2]}, not 0`);
  const flags = blob[3]!;
  if (flags & 0x20) throw new BadBlob('the blob is an extended GeoPackage geometry, which this reader does not know');
  const envelope = (flags >> 1) & 0x07;
  if (envelope > 4) throw new BadBlob(`the envelope indicator is ${envelope}, which GeoPackage does not define`);
  const le = (flags & 0x01) === 1;
  const srsId = new DataView(blob.buffer, blob.byteOffset, blob.byteLength).getInt32(4, le);
  const start = 8 + ENVELOPE_BYTES[envelope]!;
  if (blob.length < start) throw new BadBlob('the blob ends inside its envelope');
  if (flags & 0x10) return { geometry: null, srsId };
  return { geometry: new Wkb(blob, start, project).geometry(), srsId };
}
