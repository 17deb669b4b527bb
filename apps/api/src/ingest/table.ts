// A spreadsheet (csv, xls, xlsx) read as a table: the header row gives each column a unique, safe key, and every data
// row becomes a record; the bulk uploads of farmers and agents read their files so, in the parse worker.
import { parseCsv, decodeText } from './csv.js';
import { checkFileType } from './file-type.js';
import { canonicalKey, FORBIDDEN_KEYS } from './keys.js';
import { MAX_CELL_CHARS, MAX_COLUMNS, MAX_INFLATE_RATIO, MAX_ROWS, ParseError, tooManyRows, type Cell, type FileKind } from './limits.js';
import { readWorkbook } from './workbook.js';
import { readXlsxRows } from './xlsx-stream.js';

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
  if (kind !== 'csv' && kind !== 'xls' && kind !== 'xlsx')
    throw new ParseError(400, 'file_type_unsupported', 'Only .csv, .xls and .xlsx files are accepted here');
  return kind;
}

/**
 * parseTable for the bulk uploads (run in the parse worker): an xlsx is read by the analysis files' stream reader
 * (xlsx-stream.ts) with the same caps (inflate ratio, columns, cell size, and the actual inflated bytes
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
    {
      maxInflateRatio: MAX_INFLATE_RATIO,
      maxColumns: MAX_COLUMNS,
      maxCellChars: MAX_CELL_CHARS,
      fail: (status, code, message) => new ParseError(status, code, message),
    },
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
  if (missing.length > 0)
    throw new ParseError(400, 'missing_columns', `The header has no ${missing.join(' and no ')} column; download the template for the expected columns`);
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
