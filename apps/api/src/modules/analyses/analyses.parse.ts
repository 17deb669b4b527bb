// Turns an uploaded analysis file into plain rows, defensively: the type comes from the content (zip magic for xlsx, OLE
// compound-file magic for xls, UTF-8/Latin-1 text without NULs for csv) and must agree with the name; rows, columns, cell
// sizes and the zip's inflated size are capped. Runs inside a worker thread (see analyses.parse-client.ts).
import * as XLSX from '@e965/xlsx';
import { canonicalKey } from './analyses.rows.js';

/** Most data rows one analysis accepts (documented in docs/decisions-analysis.md). */
export const MAX_ROWS = 100_000;
export const MAX_COLUMNS = 200;
export const MAX_CELL_CHARS = 600 * 1024;
/** Most bytes an xlsx may inflate to, and the largest inflate ratio of one member (zip-bomb guard). */
export const MAX_INFLATED_BYTES = 160 * 1024 * 1024;
export const MAX_INFLATE_RATIO = 200;

export type FileKind = 'csv' | 'xls' | 'xlsx';

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

export function sniffKind(buf: Uint8Array): FileKind | null {
  if (buf.length >= 4 && buf[0] === 0x50 && buf[1] === 0x4b && buf[2] === 0x03 && buf[3] === 0x04) return 'xlsx';
  const cfb = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
  if (buf.length >= 8 && cfb.every((b, i) => buf[i] === b)) return 'xls';
  if (buf.length > 0 && !buf.includes(0)) return 'csv';
  return null;
}

export function extensionKind(filename: string): FileKind | null {
  const ext = /\.([a-z0-9]+)$/i.exec(filename.trim())?.[1]?.toLowerCase();
  return ext === 'csv' || ext === 'xls' || ext === 'xlsx' ? ext : null;
}

/** The type by content, which must match the name's extension. */
export function checkFileType(buf: Uint8Array, filename: string): FileKind {
  const byName = extensionKind(filename);
  if (!byName) throw new ParseError(400, 'file_type_unsupported', 'Only .csv, .xls and .xlsx files are accepted');
  const byContent = sniffKind(buf);
  if (!byContent) throw new ParseError(400, 'file_type_unsupported', 'The file is neither a spreadsheet nor text; only .csv, .xls and .xlsx files are accepted');
  if (byContent !== byName) {
    throw new ParseError(400, 'file_type_mismatch', `The file is named .${byName} but its content is ${byContent === 'csv' ? 'text (csv)' : `an ${byContent} workbook`}; rename it or export it again`);
  }
  return byContent;
}

/** Reads the zip central directory and refuses archives that would inflate beyond the caps (before any inflating). */
export function checkZip(buf: Uint8Array): void {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 65_535); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new ParseError(400, 'file_unreadable', 'The .xlsx file is damaged (no zip directory)');
  const entries = view.getUint16(eocd + 10, true);
  let p = view.getUint32(eocd + 16, true);
  if (entries > 2000) throw new ParseError(413, 'file_too_complex', 'The .xlsx file has too many parts');
  let total = 0;
  for (let e = 0; e < entries; e++) {
    if (p + 46 > buf.length || view.getUint32(p, true) !== 0x02014b50) throw new ParseError(400, 'file_unreadable', 'The .xlsx file is damaged (bad zip directory)');
    const compressed = view.getUint32(p + 20, true);
    const size = view.getUint32(p + 24, true);
    if (compressed === 0xffffffff || size === 0xffffffff) throw new ParseError(413, 'file_too_complex', 'The .xlsx file is too large once unpacked');
    total += size;
    if (total > MAX_INFLATED_BYTES || (size > 1024 * 1024 && size / Math.max(1, compressed) > MAX_INFLATE_RATIO)) {
      throw new ParseError(413, 'file_too_complex', 'The .xlsx file unpacks to far more data than a farm list holds (a zip bomb?)');
    }
    p += 46 + view.getUint16(p + 28, true) + view.getUint16(p + 30, true) + view.getUint16(p + 32, true);
  }
}

const tooManyRows = (max = MAX_ROWS) =>
  new ParseError(413, 'too_many_rows', `The file has more than ${max.toLocaleString('en')} data rows; split it into ${max === MAX_ROWS ? 'several analyses' : 'several uploads'}`);

function decodeText(buf: Uint8Array): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    text = new TextDecoder('latin1').decode(buf); // Excel's "CSV" export in a Western locale
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function detectDelimiter(text: string): string {
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
  const d = detectDelimiter(text);
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let i = 0;
  const n = text.length;
  const endCell = () => {
    if (cell.length > MAX_CELL_CHARS) throw new ParseError(413, 'cell_too_large', `A cell in row ${rows.length + 1} is longer than ${MAX_CELL_CHARS} characters`);
    row.push(cell);
    cell = '';
    if (row.length > MAX_COLUMNS) throw new ParseError(413, 'too_many_columns', `The file has more than ${MAX_COLUMNS} columns`);
  };
  const endRow = () => {
    endCell();
    if (!(row.length === 1 && row[0] === '')) {
      rows.push(row);
      if (rows.length > maxRows) throw tooManyRows(maxRows - 1);
    }
    row = [];
  };
  while (i < n) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        continue;
      }
      // Copy a run of plain characters at once (a coordinates cell is long).
      const next = text.indexOf('"', i);
      const end = next < 0 ? n : next;
      cell += text.slice(i, end);
      if (cell.length > MAX_CELL_CHARS) throw new ParseError(413, 'cell_too_large', `A cell in row ${rows.length + 1} is longer than ${MAX_CELL_CHARS} characters`);
      i = end;
      continue;
    }
    if (ch === '"' && cell === '') {
      quoted = true;
      i++;
    } else if (ch === d) {
      endCell();
      i++;
    } else if (ch === '\n' || ch === '\r') {
      endRow();
      i += ch === '\r' && text[i + 1] === '\n' ? 2 : 1;
    } else {
      cell += ch;
      i++;
    }
  }
  if (quoted) throw new ParseError(400, 'file_unreadable', 'The csv file ends inside a quoted cell (an unmatched ")');
  if (cell !== '' || row.length > 0) endRow();
  return rows;
}

type Cell = string | number | boolean;

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

/** File bytes → data rows as records keyed by the header, with every cap applied. Throws ParseError for anything refused. */
export function parseTable(buf: Uint8Array, filename: string, opts: TableOptions): ParsedFile {
  const maxRows = opts.maxRows ?? MAX_ROWS;
  const kind = checkFileType(buf, filename);
  const table: Cell[][] = kind === 'csv' ? parseCsv(decodeText(buf), maxRows + 1) : readWorkbook(buf, kind, maxRows);
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

/** An analysis file: farm_name and farm_coordinates are required columns. */
export function parseFile(buf: Uint8Array, filename: string): ParsedFile {
  return parseTable(buf, filename, { required: ['farm_name', 'farm_coordinates'], headerHint: 'farm_name, farm_coordinates, operational_area_id' });
}
