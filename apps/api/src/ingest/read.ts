// Turns an uploaded farm list (an analysis file) into plain rows, defensively: the type comes from the content and must
// agree with the name (file-type.ts); rows (features), columns, cell sizes and a zip's inflated size are capped
// (limits.ts). A csv, an xlsx or a GeoJSON file is read in a stream; the other formats whole. Runs inside a worker
// thread (the analysis module's parse worker). GIS formats are read by gis-files.ts.
import fs from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { zipEntries } from './archive.js';
import { CsvRows, decodeText } from './csv.js';
import { checkFileType, extensionKind, isCfb } from './file-type.js';
import { canonicalKey } from './keys.js';
import { GeoJsonRows } from './geojson-stream.js';
import { readGeoJson, readKml, readKmz, readShapefileZip, type Limits } from './gis-files.js';
import { gpkgTooLarge, MAX_GPKG_BYTES, readGeoPackage } from './gpkg.js';
import {
  ACCEPTED,
  MAX_CELL_CHARS,
  MAX_COLUMNS,
  MAX_IN_MEMORY_BYTES,
  MAX_INFLATE_RATIO,
  MAX_ROWS,
  ParseError,
  tooManyAnalysisRows,
  type Cell,
  type FileKind,
} from './limits.js';
import { headerKeys, parseTable, type ParsedFile } from './table.js';
import { isZip } from './zip.js';
import { readXlsxRows } from './xlsx-stream.js';

const limits: Limits = { maxRows: MAX_ROWS, fail: (status, code, message) => new ParseError(status, code, message) };

/**
 * An analysis file: a spreadsheet with farm_name and farm_coordinates columns, or a GIS file (one row per feature).
 * nameField: the feature property that names a farm (GIS files; default farm_name, name, or the first text property).
 */
export function parseFile(buf: Uint8Array, filename: string, nameField?: string): ParsedFile {
  const kind = checkFileType(buf, filename);
  if (kind === 'geojson') return { kind, rows: readGeoJson(decodeText(buf), nameField, limits) };
  if (kind === 'kml') return { kind, rows: readKml(decodeText(buf), nameField, limits) };
  if (kind === 'kmz') return { kind, rows: readKmz(buf, zipEntries(buf, 'kmz'), nameField, limits) };
  if (kind === 'zip') return { kind, rows: readShapefileZip(buf, zipEntries(buf, 'zip'), nameField, limits) };
  if (kind === 'gpkg') throw new Error('A GeoPackage is read by parseWholeFile (sql.js starts asynchronously)');
  return parseTable(buf, filename, { required: [...ANALYSIS_COLUMNS.required], headerHint: ANALYSIS_COLUMNS.headerHint });
}

/** parseFile, and a GeoPackage (ingest/gpkg.ts, whose SQLite starts asynchronously). */
export async function parseWholeFile(buf: Uint8Array, filename: string, nameField?: string): Promise<ParsedFile> {
  if (checkFileType(buf, filename) === 'gpkg') return { kind: 'gpkg', rows: await readGeoPackage(buf, filename, nameField, limits) };
  return parseFile(buf, filename, nameField);
}

const ANALYSIS_COLUMNS = { required: ['farm_name', 'farm_coordinates'], headerHint: 'farm_name, farm_coordinates, operational_area_id' } as const;

/** An analysis file's header row → its keys; 400 missing_columns naming the required columns it lacks. */
function analysisHeader(cells: Cell[]): string[] {
  const keys = headerKeys(cells);
  const canon = new Set(keys.map(canonicalKey));
  const missing = ANALYSIS_COLUMNS.required.filter((k) => !canon.has(k));
  if (missing.length > 0)
    throw new ParseError(400, 'missing_columns', `The header has no ${missing.join(' and no ')} column; download the template for the expected columns`);
  return keys;
}

/** Bytes read from disk at a time by the stream reader. */
const PIECE_BYTES = 256 * 1024;
/** Bytes the type is sniffed from when the file is read in a stream. */
const HEAD_BYTES = 64 * 1024;

/** Reads the file in pieces of PIECE_BYTES. */
async function* pieces(file: string): AsyncGenerator<Buffer> {
  for await (const piece of fs.createReadStream(file, { highWaterMark: PIECE_BYTES })) yield piece as Buffer;
}

/** Whether the file is valid UTF-8, read in pieces (a character may straddle two pieces). */
async function fileIsUtf8(file: string): Promise<boolean> {
  let carry: Buffer = Buffer.alloc(0);
  for await (const piece of pieces(file)) {
    const buf = carry.length > 0 ? Buffer.concat([carry, piece]) : piece;
    // Hold back the last character when it may be incomplete: from its lead byte (at most 4 bytes from the end).
    let cut = buf.length;
    for (let k = buf.length - 1; k >= Math.max(0, buf.length - 4); k--) {
      if ((buf[k]! & 0xc0) !== 0x80) {
        cut = k;
        break;
      }
    }
    if (!isUtf8(buf.subarray(0, cut))) return false;
    carry = Buffer.from(buf.subarray(cut));
  }
  return isUtf8(carry);
}

/** Rows handed over by readAnalysisFile: a window of data rows, the first numbered `first` (1-based). */
export type RowWindow = (rows: Array<Record<string, unknown>>, first: number) => Promise<void>;

/**
 * An xlsx analysis file read in a stream (xlsx-stream.ts): its first sheet's rows, keyed by the header, handed
 * to onRows a window at a time, with the csv's caps (maxRows: ANALYSIS_MAX_ROWS). null: not a workbook that reader knows
 * (a binary .xlsb, or no workbook part), which is then read whole.
 */
async function streamXlsx(file: string, opts: { maxRows: number; window: number }, onRows: RowWindow): Promise<{ kind: 'xlsx'; total: number } | null> {
  let keys: string[] | null = null;
  let total = 0;
  let pending: Array<Record<string, unknown>> = [];
  let first = 1;
  const read = await readXlsxRows(
    file,
    {
      maxInflateRatio: MAX_INFLATE_RATIO,
      maxColumns: MAX_COLUMNS,
      maxCellChars: MAX_CELL_CHARS,
      fail: (status, code, message) => new ParseError(status, code, message),
    },
    (cells) => {
      if (!keys) {
        keys = analysisHeader(cells);
        return;
      }
      if (++total > opts.maxRows) throw tooManyAnalysisRows(opts.maxRows);
      const rec: Record<string, unknown> = {};
      keys.forEach((k, i) => {
        const v = cells[i];
        rec[k] = v === undefined ? '' : v;
      });
      pending.push(rec);
    },
    async () => {
      while (pending.length >= opts.window) {
        const part = pending.slice(0, opts.window);
        pending = pending.slice(part.length);
        await onRows(part, first);
        first += part.length;
      }
    },
  );
  if (!read) return null;
  if (!keys) throw new ParseError(400, 'file_empty', `The file is empty: expected a header row (${ANALYSIS_COLUMNS.headerHint}) and data rows`);
  if (total === 0) throw new ParseError(400, 'file_empty', 'The file has a header but no data rows');
  for (let i = 0; i < pending.length; i += opts.window) await onRows(pending.slice(i, i + opts.window), first + i);
  return { kind: 'xlsx', total };
}

/**
 * A text file's pieces, decoded as the whole-file reader decodes it (UTF-8 when the whole file is valid UTF-8, else
 * Latin-1; a leading BOM dropped); a NUL byte in any piece means the file is not text (as checkFileType says of a buffer).
 */
async function* textPieces(file: string): AsyncGenerator<string> {
  const decoder = new TextDecoder((await fileIsUtf8(file)) ? 'utf-8' : 'latin1');
  let start = true;
  for await (const piece of pieces(file)) {
    if (piece.includes(0))
      throw new ParseError(400, 'file_type_unsupported', `The file is neither a spreadsheet, a GIS file nor text; only ${ACCEPTED} files are accepted`);
    let text = decoder.decode(piece, { stream: true });
    if (start) {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      start = false;
    }
    yield text;
  }
  yield decoder.decode();
}

/** Hands pending rows to onRows a window at a time (all: the rest too), numbering them from first. */
function windows(window: number, onRows: RowWindow) {
  let pending: Array<Record<string, unknown>> = [];
  let first = 1;
  return {
    add: (row: Record<string, unknown>) => void pending.push(row),
    drain: async (all: boolean) => {
      while (pending.length >= window || (all && pending.length > 0)) {
        const part = pending.slice(0, window);
        pending = pending.slice(part.length);
        await onRows(part, first);
        first += part.length;
      }
    },
  };
}

/**
 * A GeoJSON file (or a JSON list of features or locations) read in a stream (geojson-stream.ts): one feature at
 * a time, with the rows capped by maxRows (ANALYSIS_MAX_ROWS). Each row is the one readGeoJson would make.
 */
async function streamGeoJson(
  file: string,
  opts: { nameField?: string | undefined; maxRows: number; window: number },
  onRows: RowWindow,
): Promise<{ kind: 'geojson'; total: number }> {
  const out = windows(opts.window, onRows);
  const reader = new GeoJsonRows(opts.nameField, { maxRows: opts.maxRows, fail: (status, code, message) => new ParseError(status, code, message) }, out.add);
  for await (const text of textPieces(file)) {
    reader.push(text);
    await out.drain(false);
  }
  reader.end();
  await out.drain(true);
  return { kind: 'geojson', total: reader.rows };
}

/**
 * An analysis file on disk, read into data rows that are handed to onRows a window (of up to `window` rows) at a time;
 * the next window is read only once onRows has settled, so a slow consumer holds the reader back. A csv is read in a
 * stream (its type from its first bytes, NUL checked in every piece), never held whole: its rows are capped by maxRows
 * (413 too_many_rows naming it). An xlsx and a GeoJSON file are read in a stream too (streamXlsx, streamGeoJson), with
 * the same cap. Every other format is read whole, as before, up to MAX_IN_MEMORY_BYTES and min(maxRows, MAX_ROWS) rows.
 */
export async function readAnalysisFile(
  file: string,
  filename: string,
  opts: { nameField?: string | undefined; maxRows: number; window: number },
  onRows: RowWindow,
): Promise<{ kind: FileKind; total: number }> {
  const size = (await fs.promises.stat(file)).size;
  if (size === 0) throw new ParseError(400, 'file_empty', 'The file is empty');
  const head = Buffer.alloc(Math.min(size, HEAD_BYTES));
  const fh = await fs.promises.open(file, 'r');
  try {
    await fh.read(head, 0, head.length, 0);
  } finally {
    await fh.close();
  }
  const headKind = isZip(head) || isCfb(head) ? null : checkFileType(head, filename);
  if (headKind === 'geojson') return streamGeoJson(file, opts, onRows);
  if (headKind !== 'csv') {
    if (isZip(head) && extensionKind(filename) === 'xlsx') {
      const streamed = await streamXlsx(file, opts, onRows);
      if (streamed) return streamed;
    }
    if (size > MAX_IN_MEMORY_BYTES && headKind !== 'gpkg') {
      const kind = extensionKind(filename) ?? 'file';
      throw new ParseError(
        413,
        'file_too_large',
        `A .${kind} file is read whole, so it may hold at most ${MAX_IN_MEMORY_BYTES / 1048576} MB; send a larger list as csv, xlsx or GeoJSON, which are read in a stream`,
      );
    }
    // A GeoPackage's own cap and message (MAX_GPKG_BYTES), before the file is read.
    if (headKind === 'gpkg' && size > MAX_GPKG_BYTES) throw gpkgTooLarge(filename, limits);
    const { kind, rows } = await parseWholeFile(await fs.promises.readFile(file), filename, opts.nameField);
    for (let i = 0; i < rows.length; i += opts.window) await onRows(rows.slice(i, i + opts.window), i + 1);
    return { kind, total: rows.length };
  }
  // csv, in a stream.
  let keys: string[] | null = null;
  let total = 0;
  const out = windows(opts.window, onRows);
  const csv = new CsvRows(
    opts.maxRows + 1,
    (cells) => {
      if (!keys) {
        keys = analysisHeader(cells);
        return;
      }
      const rec: Record<string, unknown> = {};
      keys.forEach((k, i) => {
        const v = cells[i];
        rec[k] = v === undefined ? '' : v;
      });
      out.add(rec);
      total++;
    },
    () => tooManyAnalysisRows(opts.maxRows),
  );
  // The last piece (the decoder's rest) ends the text.
  let prev: string | null = null;
  for await (const text of textPieces(file)) {
    if (prev !== null) {
      csv.push(prev, false);
      await out.drain(false);
    }
    prev = text;
  }
  csv.push(prev ?? '', true);
  if (!keys) throw new ParseError(400, 'file_empty', `The file is empty: expected a header row (${ANALYSIS_COLUMNS.headerHint}) and data rows`);
  if (total === 0) throw new ParseError(400, 'file_empty', 'The file has a header but no data rows');
  await out.drain(true);
  return { kind: 'csv', total };
}
