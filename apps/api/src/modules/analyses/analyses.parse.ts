// Turns an uploaded analysis file into plain rows, defensively: the type comes from the content (a zip's members for
// xlsx, KMZ or a zipped Shapefile; OLE compound-file magic for xls; text without NULs: JSON for GeoJSON, XML for KML,
// else csv) and must agree with the name; rows (features), columns, cell sizes and a zip's inflated size are capped.
// Runs inside a worker thread (see analyses.parse-client.ts). GIS formats are read by analyses.gis-files.ts.
import fs from 'node:fs';
import zlib from 'node:zlib';
import { isUtf8 } from 'node:buffer';
import * as XLSX from '@e965/xlsx';
import { canonicalKey } from './analyses.rows.js';
import { readGeoJson, readKml, readKmz, readShapefileZip, unsafeEntryName, type Limits, type ZipEntry } from './analyses.gis-files.js';
import { GeoJsonRows } from './analyses.geojson-stream.js';
import { readXlsxRows } from './analyses.xlsx-stream.js';

/**
 * Most data rows of the formats read whole in memory (xls, xlsb, KML, KMZ, zipped Shapefile) and of JSON locations, and
 * the embedded engine's default analysis cap. A csv, an xlsx or a GeoJSON file is read in a stream up to
 * ANALYSIS_MAX_ROWS (config.ts; docs/decisions/0022-million-row-analyses.md, "GeoJSON read in a stream").
 */
export const MAX_ROWS = 100_000;
/** Largest file of a format that is read whole (every format but csv, xlsx and GeoJSON); larger ones get 413 file_too_large. */
export const MAX_IN_MEMORY_BYTES = 64 * 1024 * 1024;
export const MAX_COLUMNS = 200;
export const MAX_CELL_CHARS = 600 * 1024;
/** Most bytes an xlsx may inflate to, and the largest inflate ratio of one member (zip-bomb guard). */
export const MAX_INFLATED_BYTES = 160 * 1024 * 1024;
export const MAX_INFLATE_RATIO = 200;

/** zip: a zipped Shapefile. */
export type FileKind = 'csv' | 'xls' | 'xlsx' | 'geojson' | 'kml' | 'kmz' | 'zip';

/** The extensions accepted, as said in messages. */
export const ACCEPTED = '.csv, .xls, .xlsx, .geojson, .json, .kml, .kmz and .zip (Shapefile)';

export class ParseError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

const isZip = (buf: Uint8Array) => buf.length >= 4 && buf[0] === 0x50 && buf[1] === 0x4b && buf[2] === 0x03 && buf[3] === 0x04;

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
  return ext === 'csv' || ext === 'xls' || ext === 'xlsx' || ext === 'geojson' || ext === 'kml' || ext === 'kmz' || ext === 'zip' ? ext : null;
}

const described: Record<FileKind, string> = {
  csv: 'text (csv)',
  xls: 'an xls workbook',
  xlsx: 'an xlsx workbook',
  geojson: 'JSON (GeoJSON)',
  kml: 'XML (KML)',
  kmz: 'a zipped KML (kmz)',
  zip: 'a zipped Shapefile',
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
      throw new ParseError(400, 'file_unreadable', byName === 'xlsx' ? `The .xlsx file is not ${wanted}` : `The ${byName === 'zip' ? '.zip' : '.kmz'} file holds ${wanted}`);
    }
    throw new ParseError(400, 'file_type_mismatch', `The file is named .${byName} but its content is a zip archive; rename it or export it again`);
  }
  if (!byContent) throw new ParseError(400, 'file_type_unsupported', `The file is neither a spreadsheet, a GIS file nor text; only ${ACCEPTED} files are accepted`);
  if (byContent !== byName) {
    const named = byName === 'zip' ? 'a .zip' : `.${byName}`;
    throw new ParseError(400, 'file_type_mismatch', `The file is named ${named} but its content is ${described[byContent]}; rename it or export it again`);
  }
  return byContent;
}

/**
 * Reads a zip's central directory and refuses archives that would inflate beyond the caps (before any inflating), or
 * whose entry names could escape a folder ("../"), and returns the entries. label names the file kind in messages.
 */
export function zipEntries(buf: Uint8Array, label: string): ZipEntry[] {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 65_535); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new ParseError(400, 'file_unreadable', `The .${label} file is damaged (no zip directory)`);
  const entries = view.getUint16(eocd + 10, true);
  let p = view.getUint32(eocd + 16, true);
  if (entries > 2000) throw new ParseError(413, 'file_too_complex', `The .${label} file has too many parts`);
  let total = 0;
  const out: ZipEntry[] = [];
  for (let e = 0; e < entries; e++) {
    if (p + 46 > buf.length || view.getUint32(p, true) !== 0x02014b50) throw new ParseError(400, 'file_unreadable', `The .${label} file is damaged (bad zip directory)`);
    const compressed = view.getUint32(p + 20, true);
    const size = view.getUint32(p + 24, true);
    const nameLength = view.getUint16(p + 28, true);
    if (compressed === 0xffffffff || size === 0xffffffff) throw new ParseError(413, 'file_too_complex', `The .${label} file is too large once unpacked`);
    total += size;
    if (total > MAX_INFLATED_BYTES || (size > 1024 * 1024 && size / Math.max(1, compressed) > MAX_INFLATE_RATIO)) {
      throw new ParseError(413, 'file_too_complex', `The .${label} file unpacks to far more data than a farm list holds (a zip bomb?)`);
    }
    if (p + 46 + nameLength > buf.length) throw new ParseError(400, 'file_unreadable', `The .${label} file is damaged (bad zip directory)`);
    const name = new TextDecoder('utf-8').decode(buf.subarray(p + 46, p + 46 + nameLength));
    if (unsafeEntryName(name)) throw new ParseError(400, 'file_unsafe', `The .${label} file holds an entry named ${JSON.stringify(name.slice(0, 80))}, which points outside the archive; it was refused`);
    out.push({ name, size });
    p += 46 + nameLength + view.getUint16(p + 30, true) + view.getUint16(p + 32, true);
  }
  return out;
}

/**
 * The xlsx zip-bomb check before SheetJS's whole-file reader: the declared sizes (zipEntries), then each deflated
 * member inflated once with its declared size as the most output allowed, so that a directory that lies about its
 * sizes is refused holding at most what it declared (SheetJS would inflate all of it: 2 GB from a 1.9 MB file).
 */
export function checkZip(buf: Uint8Array): void {
  zipEntries(buf, 'xlsx');
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  let eocd = buf.length - 22;
  while (eocd >= 0 && view.getUint32(eocd, true) !== 0x06054b50) eocd--;
  let p = view.getUint32(eocd + 16, true);
  for (let e = view.getUint16(eocd + 10, true); e > 0; e--) {
    const method = view.getUint16(p + 10, true);
    const compressed = view.getUint32(p + 20, true);
    const size = view.getUint32(p + 24, true);
    const offset = view.getUint32(p + 42, true);
    const nameLength = view.getUint16(p + 28, true);
    if (method === 8 && offset + 30 <= buf.length && view.getUint32(offset, true) === 0x04034b50) {
      const start = offset + 30 + view.getUint16(offset + 26, true) + view.getUint16(offset + 28, true);
      try {
        zlib.inflateRawSync(buf.subarray(start, Math.min(buf.length, start + compressed)), { maxOutputLength: Math.max(1, size) });
      } catch (err) {
        if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
          const name = new TextDecoder('utf-8').decode(buf.subarray(p + 46, p + 46 + nameLength));
          throw new ParseError(400, 'file_unreadable', `The .xlsx file is damaged (${name.slice(0, 80)} is longer than its zip directory says)`);
        }
        // A damaged stream: SheetJS says what is wrong with it.
      }
    }
    p += 46 + nameLength + view.getUint16(p + 30, true) + view.getUint16(p + 32, true);
  }
}

const tooManyRows = (max = MAX_ROWS) =>
  new ParseError(413, 'too_many_rows', `The file has more than ${max.toLocaleString('en')} data rows; split it into ${max === MAX_ROWS ? 'several analyses' : 'several uploads'}`);

/** An analysis file over the configured row cap (ANALYSIS_MAX_ROWS), naming the limit. */
export const tooManyAnalysisRows = (max: number) =>
  new ParseError(413, 'too_many_rows', `The file has more than ${max.toLocaleString('en')} data rows, the most one analysis accepts here; split it into several analyses`);

function decodeText(buf: Uint8Array): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    text = new TextDecoder('latin1').decode(buf); // Excel's "CSV" export in a Western locale
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

export function detectDelimiter(text: string): string {
  const line = text.slice(0, Math.min(text.length, 4096)).split(/\r?\n/)[0] ?? '';
  let best = ',';
  let bestCount = 0;
  for (const d of [',', ';', '\t']) {
    let count = 0;
    let quoted = false;
    for (const ch of line) {
      if (ch === '"') quoted = !quoted;
      else if (!quoted && ch === d) count++;
    }
    if (count > bestCount) {
      best = d;
      bestCount = count;
    }
  }
  return best;
}

/** RFC 4180 CSV (quoted cells may hold delimiters, quotes and newlines) into rows of strings; stops at the caps. */
export function parseCsv(text: string, maxRows = MAX_ROWS + 1): string[][] {
  const rows: string[][] = [];
  new CsvRows(maxRows, (row) => void rows.push(row), () => tooManyRows(maxRows - 1)).push(text, true);
  return rows;
}

/** Characters the delimiter is guessed from (the first line within them). */
const DELIMITER_WINDOW = 4096;

/**
 * The csv reader, fed text in pieces (a file read in a stream): each complete row goes to onRow as it is read, so neither
 * the file nor its rows are held. Same grammar and caps as a whole read: a piece may end anywhere (inside a quoted cell,
 * between the two quotes of an escaped quote, between \r and \n). maxRows counts the header too; tooMany is thrown
 * beyond it.
 */
export class CsvRows {
  private d: string | null = null;
  private head = '';
  private row: string[] = [];
  private cell = '';
  private quoted = false;
  private carry = '';
  private count = 0;

  constructor(
    private readonly maxRows: number,
    private readonly onRow: (row: string[]) => void,
    private readonly tooMany: () => Error,
  ) {}

  private endCell(): void {
    if (this.cell.length > MAX_CELL_CHARS) throw new ParseError(413, 'cell_too_large', `A cell in row ${this.count + 1} is longer than ${MAX_CELL_CHARS} characters`);
    this.row.push(this.cell);
    this.cell = '';
    if (this.row.length > MAX_COLUMNS) throw new ParseError(413, 'too_many_columns', `The file has more than ${MAX_COLUMNS} columns`);
  }

  private endRow(): void {
    this.endCell();
    const row = this.row;
    this.row = [];
    if (!(row.length === 1 && row[0] === '')) {
      if (++this.count > this.maxRows) throw this.tooMany();
      this.onRow(row);
    }
  }

  /** Reads a piece of the text; last: the text ends with it (an unmatched quote is then an error). */
  push(piece: string, last: boolean): void {
    let text = piece;
    if (this.d === null) {
      // The delimiter is guessed from the first line: wait until its window has arrived (or the text ends).
      this.head += piece;
      if (this.head.length < DELIMITER_WINDOW && !last) return;
      this.d = detectDelimiter(this.head);
      text = this.head;
      this.head = '';
    }
    if (this.carry) {
      text = this.carry + text;
      this.carry = '';
    }
    // A quote or a carriage return at the end of a piece is read with the next one ("" is an escaped quote, \r\n one break).
    // A run of quotes is carried whole: its pairs can only be read with what follows it.
    if (!last && text.length > 0) {
      let cut = text.length;
      if (text[cut - 1] === '\r') cut--;
      else while (cut > 0 && text[cut - 1] === '"') cut--;
      if (cut < text.length) {
        this.carry = text.slice(cut);
        text = text.slice(0, cut);
      }
    }
    const d = this.d;
    const n = text.length;
    let i = 0;
    while (i < n) {
      const ch = text[i]!;
      if (this.quoted) {
        if (ch === '"') {
          if (text[i + 1] === '"') {
            this.cell += '"';
            i += 2;
            continue;
          }
          this.quoted = false;
          i++;
          continue;
        }
        // Copy a run of plain characters at once (a coordinates cell is long).
        const next = text.indexOf('"', i);
        const end = next < 0 ? n : next;
        this.cell += text.slice(i, end);
        if (this.cell.length > MAX_CELL_CHARS) throw new ParseError(413, 'cell_too_large', `A cell in row ${this.count + 1} is longer than ${MAX_CELL_CHARS} characters`);
        i = end;
        continue;
      }
      if (ch === '"' && this.cell === '') {
        this.quoted = true;
        i++;
      } else if (ch === d) {
        this.endCell();
        i++;
      } else if (ch === '\n' || ch === '\r') {
        this.endRow();
        i += ch === '\r' && text[i + 1] === '\n' ? 2 : 1;
      } else {
        this.cell += ch;
        i++;
      }
    }
    if (last) {
      if (this.quoted) throw new ParseError(400, 'file_unreadable', 'The csv file ends inside a quoted cell (an unmatched ")');
      if (this.cell !== '' || this.row.length > 0) this.endRow();
    }
  }
}

export type Cell = string | number | boolean;

function readWorkbook(buf: Uint8Array, kind: 'xls' | 'xlsx', maxRows = MAX_ROWS): Cell[][] {
  if (kind === 'xlsx') checkZip(buf);
  let wb: XLSX.WorkBook;
  try {
    wb = XLSX.read(buf, {
      type: 'array',
      dense: true,
      sheetRows: maxRows + 2,
      sheets: 0,
      cellFormula: true,
      cellHTML: false,
      cellNF: false,
      cellStyles: false,
      cellDates: false,
      bookVBA: false,
      WTF: false,
    });
  } catch (err) {
    throw new ParseError(400, 'file_unreadable', `The .${kind} file cannot be read (${err instanceof Error ? err.message.slice(0, 120) : 'unknown error'})`);
  }
  const ws = wb.Sheets[wb.SheetNames[0] ?? ''];
  if (!ws) return [];
  const data = (ws['!data'] ?? []) as Array<Array<XLSX.CellObject | undefined> | undefined>;
  if (ws['!fullref'] && ws['!ref'] && ws['!fullref'] !== ws['!ref']) {
    const full = XLSX.utils.decode_range(ws['!fullref']);
    if (full.e.r - full.s.r > maxRows + 1) throw tooManyRows(maxRows);
  }
  const rows: Cell[][] = [];
  for (const r of data) {
    if (!r) continue;
    if (r.length > MAX_COLUMNS) throw new ParseError(413, 'too_many_columns', `The file has more than ${MAX_COLUMNS} columns`);
    const out: Cell[] = [];
    let any = false;
    for (let c = 0; c < r.length; c++) {
      const cell = r[c];
      // Formulas are never evaluated: the cell reads as its formula text, which no field accepts as coordinates.
      const v: Cell = cell === undefined ? '' : cell.f ? `=${cell.f}` : cell.t === 'e' ? String(cell.w ?? '') : ((cell.v as Cell | undefined) ?? '');
      if (typeof v === 'string' && v.length > MAX_CELL_CHARS) throw new ParseError(413, 'cell_too_large', `A cell in row ${rows.length + 1} is longer than ${MAX_CELL_CHARS} characters`);
      if (v !== '') any = true;
      out.push(v);
    }
    if (any) rows.push(out);
    if (rows.length > maxRows + 1) throw tooManyRows(maxRows);
  }
  return rows;
}

/** Header → unique, safe keys (blank → column_<n>; repeats get _2, _3); prototype keys are refused. */
export function headerKeys(header: Cell[]): string[] {
  const seen = new Map<string, number>();
  return header.map((h, i) => {
    let key = String(h).trim() || `column_${i + 1}`;
    if (FORBIDDEN_KEYS.has(key) || FORBIDDEN_KEYS.has(canonicalKey(key))) {
      throw new ParseError(400, 'forbidden_column', `The column name ${JSON.stringify(key)} is not allowed`);
    }
    const k = seen.get(key) ?? 0;
    seen.set(key, k + 1);
    if (k > 0) key = `${key}_${k + 1}`;
    return key;
  });
}

export type ParsedFile = { kind: FileKind; rows: Array<Record<string, unknown>> };

export type TableOptions = {
  /** Columns the header must have (compared by canonicalKey), and the hint given when one is missing. */
  required: readonly string[];
  /** Most data rows accepted (a 413 beyond). */
  maxRows?: number;
  /** What the header of an empty file should hold, for the message. */
  headerHint: string;
};

const limits: Limits = { maxRows: MAX_ROWS, fail: (status, code, message) => new ParseError(status, code, message) };

/**
 * Spreadsheet bytes (csv, xls, xlsx) → data rows as records keyed by the header, with every cap applied. Throws
 * ParseError for anything refused, a GIS file included (bulk uploads of people are tables).
 */
export function parseTable(buf: Uint8Array, filename: string, opts: TableOptions): ParsedFile & { kind: 'csv' | 'xls' | 'xlsx' } {
  const maxRows = opts.maxRows ?? MAX_ROWS;
  const kind = tableKind(buf, filename);
  return tableRecords(kind, kind === 'csv' ? parseCsv(decodeText(buf), maxRows + 1) : readWorkbook(buf, kind, maxRows), opts);
}

function tableKind(buf: Uint8Array, filename: string): 'csv' | 'xls' | 'xlsx' {
  const kind = checkFileType(buf, filename);
  if (kind !== 'csv' && kind !== 'xls' && kind !== 'xlsx') throw new ParseError(400, 'file_type_unsupported', 'Only .csv, .xls and .xlsx files are accepted here');
  return kind;
}

/**
 * parseTable for the bulk uploads (run in the parse worker): an xlsx is read by the analysis files' stream reader
 * (analyses.xlsx-stream.ts) with the same caps (inflate ratio, columns, cell size, and the actual inflated bytes
 * counted as they come, so a directory that lies about its sizes is stopped as it grows); a workbook that reader does
 * not know (xlsb) and xls are read by SheetJS after checkZip, a csv as before.
 */
export async function readTable(buf: Uint8Array, filename: string, opts: TableOptions): Promise<ParsedFile & { kind: 'csv' | 'xls' | 'xlsx' }> {
  const kind = tableKind(buf, filename);
  if (kind !== 'xlsx') return parseTable(buf, filename, opts);
  const maxRows = opts.maxRows ?? MAX_ROWS;
  const table: Cell[][] = [];
  const streamed = await readXlsxRows(
    buf,
    { maxInflateRatio: MAX_INFLATE_RATIO, maxColumns: MAX_COLUMNS, maxCellChars: MAX_CELL_CHARS, fail: (status, code, message) => new ParseError(status, code, message) },
    (cells) => {
      table.push(cells);
      if (table.length > maxRows + 1) throw tooManyRows(maxRows);
    },
    async () => undefined,
  );
  return tableRecords(kind, streamed ? table : readWorkbook(buf, kind, maxRows), opts);
}

function tableRecords<K extends 'csv' | 'xls' | 'xlsx'>(kind: K, table: Cell[][], opts: TableOptions): ParsedFile & { kind: K } {
  const maxRows = opts.maxRows ?? MAX_ROWS;
  const [header, ...body] = table;
  if (!header) throw new ParseError(400, 'file_empty', `The file is empty: expected a header row (${opts.headerHint}) and data rows`);
  const keys = headerKeys(header);
  const canon = new Set(keys.map(canonicalKey));
  const missing = opts.required.filter((k) => !canon.has(k));
  if (missing.length > 0) throw new ParseError(400, 'missing_columns', `The header has no ${missing.join(' and no ')} column; download the template for the expected columns`);
  if (body.length === 0) throw new ParseError(400, 'file_empty', 'The file has a header but no data rows');
  if (body.length > maxRows) throw tooManyRows(maxRows);
  const rows = body.map((cells) => {
    const rec: Record<string, unknown> = {};
    keys.forEach((k, i) => {
      const v = cells[i];
      rec[k] = v === undefined ? '' : v;
    });
    return rec;
  });
  return { kind, rows };
}

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
  return parseTable(buf, filename, { required: [...ANALYSIS_COLUMNS.required], headerHint: ANALYSIS_COLUMNS.headerHint });
}

const ANALYSIS_COLUMNS = { required: ['farm_name', 'farm_coordinates'], headerHint: 'farm_name, farm_coordinates, operational_area_id' } as const;

/** An analysis file's header row → its keys; 400 missing_columns naming the required columns it lacks. */
function analysisHeader(cells: Cell[]): string[] {
  const keys = headerKeys(cells);
  const canon = new Set(keys.map(canonicalKey));
  const missing = ANALYSIS_COLUMNS.required.filter((k) => !canon.has(k));
  if (missing.length > 0) throw new ParseError(400, 'missing_columns', `The header has no ${missing.join(' and no ')} column; download the template for the expected columns`);
  return keys;
}

/** Bytes read from disk at a time by the stream reader. */
const PIECE_BYTES = 256 * 1024;
/** Bytes the type is sniffed from when the file is read in a stream. */
const HEAD_BYTES = 64 * 1024;

const isCfb = (buf: Uint8Array) => buf.length >= 8 && [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1].every((b, i) => buf[i] === b);

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
 * An xlsx analysis file read in a stream (analyses.xlsx-stream.ts): its first sheet's rows, keyed by the header, handed
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
    { maxInflateRatio: MAX_INFLATE_RATIO, maxColumns: MAX_COLUMNS, maxCellChars: MAX_CELL_CHARS, fail: (status, code, message) => new ParseError(status, code, message) },
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
    if (piece.includes(0)) throw new ParseError(400, 'file_type_unsupported', `The file is neither a spreadsheet, a GIS file nor text; only ${ACCEPTED} files are accepted`);
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
 * A GeoJSON file (or a JSON list of features or locations) read in a stream (analyses.geojson-stream.ts): one feature at
 * a time, with the rows capped by maxRows (ANALYSIS_MAX_ROWS). Each row is the one readGeoJson would make.
 */
async function streamGeoJson(file: string, opts: { nameField?: string | undefined; maxRows: number; window: number }, onRows: RowWindow): Promise<{ kind: 'geojson'; total: number }> {
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
    if (size > MAX_IN_MEMORY_BYTES) {
      const kind = extensionKind(filename) ?? 'file';
      throw new ParseError(413, 'file_too_large', `A .${kind} file is read whole, so it may hold at most ${MAX_IN_MEMORY_BYTES / 1048576} MB; send a larger list as csv, xlsx or GeoJSON, which are read in a stream`);
    }
    const { kind, rows } = parseFile(await fs.promises.readFile(file), filename, opts.nameField);
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
