// An uploaded file's kind, from its content (a zip's members for xlsx, KMZ or a zipped Shapefile; OLE compound-file
// magic for xls; SQLite's header for a GeoPackage; text without NULs: JSON for GeoJSON, XML for KML, else csv), which must agree with its name.
import { zipEntries } from './archive.js';
import { ACCEPTED, ParseError, type FileKind } from './limits.js';
import { isZip } from './zip.js';

/** The SQLite file header's magic ("SQLite format 3\0"): a GeoPackage is an SQLite database. */
export const isSqlite = (buf: Uint8Array) => buf.length >= 16 && Buffer.from(buf.buffer, buf.byteOffset, 16).toString('latin1') === 'SQLite format 3\u0000';

export const isCfb = (buf: Uint8Array) => buf.length >= 8 && [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1].every((b, i) => buf[i] === b);

/** The kind by content; a zip by its members (names only, from the central directory). */
export function sniffKind(buf: Uint8Array, label = 'zip'): FileKind | null {
  if (isZip(buf)) {
    const names = zipEntries(buf, label).map((e) => e.name.toLowerCase());
    if (names.some((n) => n === '[content_types].xml' || n.startsWith('xl/'))) return 'xlsx';
    if (names.some((n) => n.endsWith('.kml'))) return 'kmz';
    if (names.some((n) => n.endsWith('.shp'))) return 'zip';
    return null;
  }
  const cfb = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
  if (buf.length >= 8 && cfb.every((b, i) => buf[i] === b)) return 'xls';
  // Any SQLite database: the GeoPackage reader says when one is not a GeoPackage.
  if (isSqlite(buf)) return 'gpkg';
  if (buf.length > 0 && !buf.includes(0)) {
    // The first character that is not a BOM or white space.
    let i = buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
    while (i < buf.length && (buf[i] === 0x20 || buf[i] === 0x09 || buf[i] === 0x0a || buf[i] === 0x0d)) i++;
    if (buf[i] === 0x7b || buf[i] === 0x5b) return 'geojson'; // { or [
    if (buf[i] === 0x3c) return 'kml'; // <
    return 'csv';
  }
  return null;
}

export function extensionKind(filename: string): FileKind | null {
  const ext = /\.([a-z0-9]+)$/i.exec(filename.trim())?.[1]?.toLowerCase();
  if (ext === 'json') return 'geojson';
  return ext === 'csv' || ext === 'xls' || ext === 'xlsx' || ext === 'geojson' || ext === 'kml' || ext === 'kmz' || ext === 'zip' || ext === 'gpkg'
    ? ext
    : null;
}

const described: Record<FileKind, string> = {
  csv: 'text (csv)',
  xls: 'an xls workbook',
  xlsx: 'an xlsx workbook',
  geojson: 'JSON (GeoJSON)',
  kml: 'XML (KML)',
  kmz: 'a zipped KML (kmz)',
  zip: 'a zipped Shapefile',
  gpkg: 'an SQLite database (GeoPackage)',
};

/** The type by content, which must match the name's extension. */
export function checkFileType(buf: Uint8Array, filename: string): FileKind {
  const byName = extensionKind(filename);
  if (!byName) throw new ParseError(400, 'file_type_unsupported', `Only ${ACCEPTED} files are accepted`);
  const byContent = sniffKind(buf, byName);
  if (!byContent && isZip(buf)) {
    // A zip holding none of the members we read (no workbook, .kml or .shp).
    if (byName === 'xlsx' || byName === 'kmz' || byName === 'zip') {
      const wanted = byName === 'xlsx' ? 'a workbook' : byName === 'kmz' ? 'no .kml document' : 'no Shapefile (.shp)';
      throw new ParseError(
        400,
        'file_unreadable',
        byName === 'xlsx' ? `The .xlsx file is not ${wanted}` : `The ${byName === 'zip' ? '.zip' : '.kmz'} file holds ${wanted}`,
      );
    }
    throw new ParseError(400, 'file_type_mismatch', `The file is named .${byName} but its content is a zip archive; rename it or export it again`);
  }
  if (!byContent)
    throw new ParseError(400, 'file_type_unsupported', `The file is neither a spreadsheet, a GIS file nor text; only ${ACCEPTED} files are accepted`);
  if (byContent !== byName) {
    const named = byName === 'zip' ? 'a .zip' : `.${byName}`;
    throw new ParseError(400, 'file_type_mismatch', `The file is named ${named} but its content is ${described[byContent]}; rename it or export it again`);
  }
  return byContent;
}
