// The caps on a zip held in memory (an xlsx before SheetJS reads it, a KMZ, a zipped Shapefile), read with the one zip
// reader (zip.ts): the declared sizes and their total, then (xlsx) each member inflated once within its declared size.
import { inflateMember, zipDirectory, type ZipMember } from './zip.js';
import { MAX_INFLATE_RATIO, MAX_INFLATED_BYTES, ParseError } from './limits.js';

const fail = (status: number, code: string, message: string) => new ParseError(status, code, message);

/**
 * Reads a zip's central directory and refuses archives that would inflate beyond the caps (before any inflating), or
 * whose entry names could escape a folder ("../"), and returns the entries. label names the file kind in messages.
 */
export function zipEntries(buf: Uint8Array, label: string): ZipMember[] {
  let total = 0;
  return zipDirectory(buf, {
    label: `The .${label} file`,
    fail,
    check: (compressed, size) => {
      total += size;
      if (total > MAX_INFLATED_BYTES || (size > 1024 * 1024 && size / Math.max(1, compressed) > MAX_INFLATE_RATIO)) {
        throw fail(413, 'file_too_complex', `The .${label} file unpacks to far more data than a farm list holds (a zip bomb?)`);
      }
    },
  });
}

/**
 * The xlsx zip-bomb check before SheetJS's whole-file reader: the declared sizes (zipEntries), then each deflated
 * member inflated once with its declared size as the most output allowed, so that a directory that lies about its
 * sizes is refused holding at most what it declared (SheetJS would inflate all of it: 2 GB from a 1.9 MB file).
 */
export function checkZip(buf: Uint8Array): void {
  for (const m of zipEntries(buf, 'xlsx')) {
    if (m.method !== 8) continue;
    try {
      inflateMember(buf, m, { label: 'The .xlsx file', fail });
    } catch (err) {
      // A member longer than declared is refused; any other damage SheetJS names (it says what is wrong with it).
      if (err instanceof ParseError && /is longer than its zip directory says/.test(err.message)) throw err;
    }
  }
}
