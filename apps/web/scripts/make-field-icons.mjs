// Writes the field app's PNG icons (public/field/icons): a white field outline with a location pin on the brand green.
// Plain zlib PNG encoding, no image library. Run: node scripts/make-field-icons.mjs
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const out = path.resolve(import.meta.dirname, '../public/field/icons');
fs.mkdirSync(out, { recursive: true });

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf) => {
  let c = 0xffffffff;
  for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
};

function png(size, pixel) {
  const raw = Buffer.alloc((size * 4 + 1) * size);
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0;
    for (let x = 0; x < size; x++) raw.set(pixel(x / size, y / size), y * (size * 4 + 1) + 1 + x * 4);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8;
  ihdr[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const GREEN = [27, 67, 50, 255];
const WHITE = [255, 255, 255, 255];
const LIGHT = [149, 213, 178, 255];

/** A field (a tilted quadrilateral outline) and a pin; `pad` shrinks the drawing for the maskable safe zone. */
function icon(pad) {
  const quad = [
    [0.2, 0.62],
    [0.62, 0.5],
    [0.82, 0.78],
    [0.3, 0.86],
  ].map(([x, y]) => [pad + x * (1 - 2 * pad), pad + y * (1 - 2 * pad)]);
  const s = 1 - 2 * pad;
  const pin = { x: pad + 0.5 * s, y: pad + 0.3 * s, r: 0.15 * s };
  const distToSeg = (px, py, [ax, ay], [bx, by]) => {
    const dx = bx - ax,
      dy = by - ay;
    const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
    return Math.hypot(px - ax - t * dx, py - ay - t * dy);
  };
  const inside = (px, py) => {
    let c = false;
    for (let i = 0, j = quad.length - 1; i < quad.length; j = i++) {
      const [xi, yi] = quad[i],
        [xj, yj] = quad[j];
      if (yi > py !== yj > py && px < ((xj - xi) * (py - yi)) / (yj - yi) + xi) c = !c;
    }
    return c;
  };
  return (x, y) => {
    const edge = Math.min(...quad.map((p, i) => distToSeg(x, y, p, quad[(i + 1) % quad.length])));
    if (edge < 0.025 * s) return WHITE;
    // The pin: a circle with a point below it, and a hole.
    const d = Math.hypot(x - pin.x, y - pin.y);
    const inTail = y > pin.y && y < pin.y + pin.r * 2.1 && Math.abs(x - pin.x) < (pin.y + pin.r * 2.1 - y) * 0.55;
    if (d < pin.r * 0.42) return GREEN;
    if (d < pin.r || inTail) return WHITE;
    if (inside(x, y)) return LIGHT;
    return GREEN;
  };
}

fs.writeFileSync(path.join(out, 'icon-192.png'), png(192, icon(0.04)));
fs.writeFileSync(path.join(out, 'icon-512.png'), png(512, icon(0.04)));
fs.writeFileSync(path.join(out, 'maskable-512.png'), png(512, icon(0.14)));
console.log(`icons written to ${out}`);
