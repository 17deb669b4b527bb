// A small Mapbox Vector Tile (MVT 2.1) encoder for the embedded engine: PGlite's PostGIS is built without protobuf-c, so
// ST_AsMVT is missing there. Features arrive in tile coordinates (integers, y down); this writes layers, features, the
// key/value tables and the MoveTo/LineTo/ClosePath command stream, as ST_AsMVT does on PostgreSQL.
import { PbfWriter as Pbf } from 'pbf';

export type TileValue = string | number | boolean;
export type TileFeature =
  | { type: 'point'; point: [number, number]; properties: Record<string, TileValue> }
  | { type: 'polygon'; rings: [number, number][][]; properties: Record<string, TileValue> };
export type TileLayer = { name: string; extent: number; features: TileFeature[] };

const zigzag = (n: number) => (n << 1) ^ (n >> 31);
const command = (id: number, count: number) => (id & 7) | (count << 3);

function geometryOf(f: TileFeature): number[] {
  const out: number[] = [];
  let cx = 0;
  let cy = 0;
  const moveTo = (x: number, y: number) => {
    out.push(command(1, 1), zigzag(x - cx), zigzag(y - cy));
    cx = x;
    cy = y;
  };
  if (f.type === 'point') {
    moveTo(f.point[0], f.point[1]);
    return out;
  }
  for (const ring of f.rings) {
    // The closing vertex is implied by ClosePath.
    const pts = ring.length > 1 && ring[0]![0] === ring[ring.length - 1]![0] && ring[0]![1] === ring[ring.length - 1]![1] ? ring.slice(0, -1) : ring;
    if (pts.length < 3) continue;
    moveTo(pts[0]![0], pts[0]![1]);
    out.push(command(2, pts.length - 1));
    for (let i = 1; i < pts.length; i++) {
      out.push(zigzag(pts[i]![0] - cx), zigzag(pts[i]![1] - cy));
      cx = pts[i]![0];
      cy = pts[i]![1];
    }
    out.push(command(7, 1));
  }
  return out;
}

function writeValue(v: TileValue, pbf: Pbf): void {
  if (typeof v === 'string') pbf.writeStringField(1, v);
  else if (typeof v === 'boolean') pbf.writeBooleanField(7, v);
  else if (Number.isInteger(v)) {
    if (v < 0) pbf.writeSVarintField(6, v);
    else pbf.writeVarintField(5, v);
  } else pbf.writeDoubleField(3, v);
}

function writeLayer(layer: TileLayer, pbf: Pbf): void {
  const keys = new Map<string, number>();
  const values = new Map<string, { index: number; value: TileValue }>();
  pbf.writeVarintField(15, 2);
  pbf.writeStringField(1, layer.name);
  for (const f of layer.features) {
    const geometry = geometryOf(f);
    if (!geometry.length) continue;
    const tags: number[] = [];
    for (const [k, v] of Object.entries(f.properties)) {
      let ki = keys.get(k);
      if (ki === undefined) keys.set(k, (ki = keys.size));
      const vk = `${typeof v}:${String(v)}`;
      let vi = values.get(vk)?.index;
      if (vi === undefined) values.set(vk, { index: (vi = values.size), value: v });
      tags.push(ki, vi);
    }
    pbf.writeMessage(
      2,
      (_: unknown, p: Pbf) => {
        p.writePackedVarint(2, tags);
        p.writeVarintField(3, f.type === 'point' ? 1 : 3);
        p.writePackedVarint(4, geometry);
      },
      null,
    );
  }
  for (const k of keys.keys()) pbf.writeStringField(3, k);
  for (const { value } of values.values()) pbf.writeMessage(4, writeValue, value);
  pbf.writeVarintField(5, layer.extent);
}

/** The tile's bytes; layers without features are left out, as ST_AsMVT leaves out empty results. */
export function encodeTile(layers: readonly TileLayer[]): Uint8Array {
  const pbf = new Pbf();
  for (const layer of layers) if (layer.features.length) pbf.writeMessage(3, writeLayer, layer);
  return pbf.finish();
}
