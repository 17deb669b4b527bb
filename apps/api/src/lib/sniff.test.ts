// Image types by content, and sizes read from headers before any decoding (PNG, JPEG, WebP in its three forms, GIF).
import { describe, expect, it } from 'vitest';
import { imageSize, MAX_IMAGE_SIDE, sniffImage } from './sniff.js';

const png = (w: number, h: number) => {
  const b = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b, 0);
  b.writeUInt32BE(13, 8);
  b.write('IHDR', 12, 'ascii');
  b.writeUInt32BE(w, 16);
  b.writeUInt32BE(h, 20);
  return b;
};
const gif = (w: number, h: number) => {
  const b = Buffer.alloc(13);
  b.write('GIF89a', 0, 'ascii');
  b.writeUInt16LE(w, 6);
  b.writeUInt16LE(h, 8);
  return b;
};
/** SOI, an APP1 (EXIF-like) segment of 300 bytes, a DQT, then SOF2 (progressive) with the size. */
const jpeg = (w: number, h: number) => {
  const app1 = Buffer.alloc(302);
  app1.writeUInt16BE(0xffe1, 0);
  app1.writeUInt16BE(300, 2);
  const dqt = Buffer.from([0xff, 0xdb, 0x00, 0x04, 0x00, 0x00]);
  const sof = Buffer.alloc(19);
  sof.writeUInt16BE(0xffc2, 0);
  sof.writeUInt16BE(17, 2);
  sof[4] = 8;
  sof.writeUInt16BE(h, 5);
  sof.writeUInt16BE(w, 7);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app1, dqt, sof, Buffer.alloc(16)]);
};
const webpX = (w: number, h: number) => {
  const b = Buffer.alloc(30);
  b.write('RIFF', 0, 'ascii');
  b.write('WEBP', 8, 'ascii');
  b.write('VP8X', 12, 'ascii');
  b.writeUIntLE(w - 1, 24, 3);
  b.writeUIntLE(h - 1, 27, 3);
  return b;
};
const webpLossless = (w: number, h: number) => {
  const b = Buffer.alloc(30);
  b.write('RIFF', 0, 'ascii');
  b.write('WEBP', 8, 'ascii');
  b.write('VP8L', 12, 'ascii');
  b[20] = 0x2f;
  const bits = (w - 1) | ((h - 1) << 14);
  b.writeUInt32LE(bits >>> 0, 21);
  return b;
};
const webpLossy = (w: number, h: number) => {
  const b = Buffer.alloc(30);
  b.write('RIFF', 0, 'ascii');
  b.write('WEBP', 8, 'ascii');
  b.write('VP8 ', 12, 'ascii');
  b.writeUInt16LE(w, 26);
  b.writeUInt16LE(h, 28);
  return b;
};

describe('images by content', () => {
  it('reads the size of each format from its header', () => {
    expect(imageSize(png(640, 480), 'image/png')).toEqual({ width: 640, height: 480 });
    expect(imageSize(gif(32, 16), 'image/gif')).toEqual({ width: 32, height: 16 });
    expect(imageSize(jpeg(4032, 3024), 'image/jpeg')).toEqual({ width: 4032, height: 3024 });
    expect(imageSize(webpX(1920, 1080), 'image/webp')).toEqual({ width: 1920, height: 1080 });
    expect(imageSize(webpLossless(300, 200), 'image/webp')).toEqual({ width: 300, height: 200 });
    expect(imageSize(webpLossy(800, 600), 'image/webp')).toEqual({ width: 800, height: 600 });
  });

  it('takes a phone photo, refuses 20,000 × 20,000 and an over-long side, naming the field', () => {
    expect(sniffImage(jpeg(4032, 3024))).toBe('image/jpeg');
    for (const big of [png(20_000, 20_000), jpeg(MAX_IMAGE_SIDE + 1, 10), webpX(8000, 8000), gif(65_535, 65_535)]) {
      expect(() => sniffImage(big, 'snapshots')).toThrow(/megapixels/);
      try {
        sniffImage(big, 'snapshots');
      } catch (err) {
        expect(Object.keys((err as { errors: Record<string, string[]> }).errors)).toEqual(['snapshots']);
      }
    }
  });

  it('refuses an image whose header is cut short, and returns null for what is not an image', () => {
    expect(() => sniffImage(jpeg(100, 100).subarray(0, 200))).toThrow(/could not be read/);
    expect(() => sniffImage(png(0, 10))).toThrow(/could not be read/);
    expect(sniffImage(Buffer.from('not an image at all'))).toBeNull();
  });
});
