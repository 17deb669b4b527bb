// File types by content (magic bytes), never by name or the client's content type; and an image's size in pixels, read
// from its header before anything decodes it (a 20,000 × 20,000 image is 1.6 GB once decoded, in whichever browser
// shows it).
import { problems } from './problems.js';

export type ImageType = 'image/png' | 'image/jpeg' | 'image/webp' | 'image/gif';

/** At most 50 megapixels, and 16,384 pixels a side (what browsers can put on a canvas or a texture). */
export const MAX_IMAGE_PIXELS = 50_000_000;
export const MAX_IMAGE_SIDE = 16_384;

function typeOf(buf: Buffer): ImageType | null {
  if (buf.length >= 8 && buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return 'image/jpeg';
  if (buf.length >= 12 && buf.toString('ascii', 0, 4) === 'RIFF' && buf.toString('ascii', 8, 12) === 'WEBP') return 'image/webp';
  if (buf.length >= 6 && (buf.toString('ascii', 0, 6) === 'GIF87a' || buf.toString('ascii', 0, 6) === 'GIF89a')) return 'image/gif';
  return null;
}

/** Width and height from the image's header, or null when the header cannot be read. */
export function imageSize(buf: Buffer, type: ImageType): { width: number; height: number } | null {
  try {
    switch (type) {
      case 'image/png':
        // The IHDR chunk comes first: width and height at bytes 16 and 20.
        return buf.length >= 24 && buf.toString('ascii', 12, 16) === 'IHDR' ? { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) } : null;
      case 'image/gif':
        return buf.length >= 10 ? { width: buf.readUInt16LE(6), height: buf.readUInt16LE(8) } : null;
      case 'image/webp': {
        const chunk = buf.toString('ascii', 12, 16);
        if (chunk === 'VP8 ' && buf.length >= 30) return { width: buf.readUInt16LE(26) & 0x3fff, height: buf.readUInt16LE(28) & 0x3fff };
        if (chunk === 'VP8L' && buf.length >= 25) {
          const b1 = buf[22]!,
            b2 = buf[23]!,
            b3 = buf[24]!;
          return { width: 1 + (((b1 & 0x3f) << 8) | buf[21]!), height: 1 + (((b3 & 0x0f) << 10) | (b2 << 2) | ((b1 & 0xc0) >> 6)) };
        }
        if (chunk === 'VP8X' && buf.length >= 30) return { width: 1 + buf.readUIntLE(24, 3), height: 1 + buf.readUIntLE(27, 3) };
        return null;
      }
      case 'image/jpeg': {
        // Walk the segments to the first start-of-frame marker (SOF0–SOF15, except DHT, JPG and DAC).
        let i = 2;
        while (i + 9 < buf.length) {
          if (buf[i] !== 0xff) return null;
          const marker = buf[i + 1]!;
          if (marker === 0xff) {
            i++;
            continue;
          }
          if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
            return { width: buf.readUInt16BE(i + 7), height: buf.readUInt16BE(i + 5) };
          }
          if ((marker >= 0xd0 && marker <= 0xd9) || marker === 0x01) {
            i += 2;
            continue;
          }
          i += 2 + buf.readUInt16BE(i + 2);
        }
        return null;
      }
    }
  } catch {
    return null;
  }
}

/**
 * The image's type by content, or null when it is not a PNG, JPEG, WebP or GIF. An image whose header cannot be read,
 * or that is larger than MAX_IMAGE_PIXELS or MAX_IMAGE_SIDE, is refused with a 400 naming the field.
 */
export function sniffImage(buf: Buffer, field = 'image'): ImageType | null {
  const type = typeOf(buf);
  if (!type) return null;
  const size = imageSize(buf, type);
  if (!size || size.width === 0 || size.height === 0) throw problems.field(field, 'The image could not be read: its header is damaged or incomplete');
  if (size.width > MAX_IMAGE_SIDE || size.height > MAX_IMAGE_SIDE || size.width * size.height > MAX_IMAGE_PIXELS) {
    throw problems.field(
      field,
      `The image is ${size.width} × ${size.height} pixels; at most ${MAX_IMAGE_PIXELS / 1_000_000} megapixels and ${MAX_IMAGE_SIDE} pixels a side are accepted`,
    );
  }
  return type;
}

export const extensionOf: Record<ImageType, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/gif': 'gif' };
