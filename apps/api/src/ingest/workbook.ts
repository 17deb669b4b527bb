// The whole-file workbook reader (SheetJS): xls, xlsb, and an xlsx the stream reader (xlsx-stream.ts) does not know.
// An xlsx is checked for zip bombs first (archive.ts); formulas are never evaluated.
import * as XLSX from '@e965/xlsx';
import { checkZip } from './archive.js';
import { MAX_CELL_CHARS, MAX_COLUMNS, MAX_ROWS, ParseError, tooManyRows, type Cell } from './limits.js';

export function readWorkbook(buf: Uint8Array, kind: 'xls' | 'xlsx', maxRows = MAX_ROWS): Cell[][] {
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
      if (typeof v === 'string' && v.length > MAX_CELL_CHARS)
        throw new ParseError(413, 'cell_too_large', `A cell in row ${rows.length + 1} is longer than ${MAX_CELL_CHARS} characters`);
      if (v !== '') any = true;
      out.push(v);
    }
    if (any) rows.push(out);
    if (rows.length > maxRows + 1) throw tooManyRows(maxRows);
  }
  return rows;
}
