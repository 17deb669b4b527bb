// Reads an xlsx analysis file from disk in a stream, so that a workbook of a million rows is staged in bounded memory
// like a csv: the zip's central directory is read from the end of the file, xl/sharedStrings.xml is inflated into a
// compact store (UTF-8 bytes in blocks, counted against a cap), the first sheet is found through the workbook and its
// relationships, and its XML is inflated and scanned as it comes (<row>/<c> elements read here, no DOM). Cell values are
// read the way SheetJS reads them (read.ts's whole-file reader, workbook.ts, which xls, xlsb and bulk uploads keep), so a
// file gives the same rows either way; xlsx-stream.test.ts compares the two on random workbooks.
import { attr, elements, scan, unescapeXml, XmlScanner } from './xml-scan.js';
import { bytesSource, fileSource, readZipDirectory, streamMember, type ZipMember, type ZipSource } from './zip.js';

/** What the reader needs from read.ts (passed in, so that this file imports nothing back from it). */
export type XlsxFail = (status: number, code: string, message: string) => Error;
export type XlsxCell = string | number | boolean;

/** Most bytes xl/sharedStrings.xml may inflate to (every text cell of an Excel file is in it: ~200 MB for a million farms). */
export const SHARED_STRINGS_MAX_BYTES = 384 * 1024 * 1024;
/** Most bytes the sheet's XML may inflate to (it is read in a stream: this bounds time, not memory). */
export const SHEET_MAX_BYTES = 2 * 1024 * 1024 * 1024 - 1;
/** Most bytes of a workbook's small parts (workbook.xml, relationships), read whole. */
const SMALL_PART_BYTES = 16 * 1024 * 1024;
/** Bytes of one block of the shared-string store. */
const BLOCK_BYTES = 16 * 1024 * 1024;

export type XlsxLimits = {
  maxInflateRatio: number;
  maxColumns: number;
  maxCellChars: number;
  fail: XlsxFail;
  /** Caps of the two large parts (defaults SHARED_STRINGS_MAX_BYTES and SHEET_MAX_BYTES; tests lower them). */
  sharedStringsMaxBytes?: number;
  sheetMaxBytes?: number;
};

const LABEL = 'The .xlsx file';

const directory = (src: ZipSource, limits: XlsxLimits) => readZipDirectory(src, { label: LABEL, fail: limits.fail });
const memberBytes = (src: ZipSource, m: ZipMember, cap: number, limits: XlsxLimits) =>
  streamMember(src, m, { label: LABEL, fail: limits.fail, cap, maxInflateRatio: limits.maxInflateRatio });

/** A small part inflated whole into text (workbook.xml and relationships). */
async function smallPart(src: ZipSource, m: ZipMember, limits: XlsxLimits): Promise<string> {
  const pieces: Buffer[] = [];
  for await (const piece of memberBytes(src, m, SMALL_PART_BYTES, limits)) pieces.push(piece);
  return Buffer.concat(pieces).toString('utf8');
}

// ---------- shared strings ----------

/** The shared strings, as UTF-8 bytes in blocks of BLOCK_BYTES (a string never straddles two), with their places. */
class SharedStrings {
  private blocks: Buffer[] = [];
  private used = BLOCK_BYTES;
  private starts = new Float64Array(1024);
  private lengths = new Uint32Array(1024);
  count = 0;

  add(text: string): void {
    const bytes = Buffer.byteLength(text);
    if (bytes > BLOCK_BYTES) throw new Error('shared string too long');
    if (this.used + bytes > BLOCK_BYTES) {
      this.blocks.push(Buffer.allocUnsafe(BLOCK_BYTES));
      this.used = 0;
    }
    const b = this.blocks.length - 1;
    this.blocks[b]!.write(text, this.used, 'utf8');
    if (this.count === this.starts.length) {
      const starts = new Float64Array(this.count * 2);
      starts.set(this.starts);
      this.starts = starts;
      const lengths = new Uint32Array(this.count * 2);
      lengths.set(this.lengths);
      this.lengths = lengths;
    }
    this.starts[this.count] = b * BLOCK_BYTES + this.used;
    this.lengths[this.count] = bytes;
    this.count++;
    this.used += bytes;
  }

  get(i: number): string | undefined {
    if (!(i >= 0 && i < this.count)) return undefined;
    const start = this.starts[i]!;
    const b = Math.floor(start / BLOCK_BYTES);
    const at = start - b * BLOCK_BYTES;
    return this.blocks[b]!.toString('utf8', at, at + this.lengths[i]!);
  }
}

/** Reads sharedStrings.xml: each <si>'s text is its <t> elements' text, joined, outside phonetic runs (<rPh>). */
async function readSharedStrings(bytes: AsyncIterable<Buffer>, limits: XlsxLimits): Promise<SharedStrings> {
  const sst = new SharedStrings();
  const rawCap = limits.maxCellChars * 8;
  let inSi = false;
  let inT = false;
  let phonetic = 0;
  let text = '';
  const tooLong = () => limits.fail(413, 'cell_too_large', `A text in the .xlsx file is longer than ${limits.maxCellChars} characters`);
  const scanner = new XmlScanner(
    {
      open(name, _tag, selfClosing) {
        if (name === 'si') {
          inSi = true;
          text = '';
          phonetic = 0;
        } else if (name === 'rPh') phonetic++;
        else if (name === 't' && inSi && phonetic === 0 && !selfClosing) inT = true;
      },
      close(name) {
        if (name === 't') inT = false;
        else if (name === 'rPh') phonetic = Math.max(0, phonetic - 1);
        else if (name === 'si' && inSi) {
          inSi = false;
          const value = unescapeXml(text, true);
          if (value.length > limits.maxCellChars) throw tooLong();
          sst.add(value);
          text = '';
        }
      },
      wantsText: () => inT,
      text(raw) {
        text += raw;
        if (text.length > rawCap) throw tooLong();
      },
    },
    (message) => limits.fail(400, 'file_unreadable', `${LABEL}'s shared strings are damaged: the XML ${message}`),
  );
  await scan(bytes, scanner);
  return sst;
}

// ---------- the sheet ----------

const colOf = (ref: string): number => {
  let c = 0;
  for (let i = 0; i < ref.length; i++) {
    const d = ref.charCodeAt(i) - 64;
    if (d < 1 || d > 26) break;
    c = 26 * c + d;
  }
  return c - 1;
};

const colName = (c: number): string => {
  let s = '';
  for (let n = c + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
};

/** A cell reference in a formula: not inside a name, a sheet-qualified word or a function call. */
const CELL_REF = /(^|[^._A-Z0-9])(\$?)([A-Z]{1,3})(\$?)([1-9]\d{0,6})(?![_.(A-Za-z0-9])/g;

/** A shared formula as it reads in another cell of its range: relative references moved by the distance from the master. */
function shiftFormula(formula: string, dRow: number, dCol: number, fail: XlsxFail): string {
  return formula.replace(CELL_REF, (all, before: string, colAbs: string, col: string, rowAbs: string, row: string) => {
    const c = colOf(col);
    const r = Number(row);
    if (c > 16383 || r > 1048576) return all;
    const nc = colAbs ? c : c + dCol;
    if (nc < 0) throw fail(400, 'file_unreadable', `${LABEL} holds a shared formula that points outside the sheet`);
    return `${before}${colAbs}${colAbs ? col : colName(nc)}${rowAbs}${rowAbs ? row : String(r + dRow)}`;
  });
}

/** An ISO date (t="d" cells) → an Excel serial number, as SheetJS reads it without cellDates. */
function dateSerial(text: string, date1904: boolean): number {
  let ms: number;
  const day = /^(\d+)-(\d+)-(\d+)$/.exec(text);
  const time = /^(\d+)-(\d+)-(\d+)T(\d+):(\d+)(:\d+)?(\.\d+)?/.exec(text);
  if (day) ms = Date.UTC(+day[1]!, +day[2]! - 1, +day[3]!);
  else if (time)
    ms = Date.UTC(
      +time[1]!,
      +time[2]! - 1,
      +time[3]!,
      +time[4]!,
      +time[5]!,
      time[6] ? parseInt(time[6].slice(1), 10) : 0,
      time[7] ? parseInt(`${time[7]}0000`.slice(1, 4), 10) : 0,
    );
  else ms = new Date(text).getTime();
  const res = (ms - Date.UTC(1899, 11, 30)) / 86_400_000;
  if (date1904) {
    const r = res - 1462;
    return r < -1402 ? r - 1 : r;
  }
  return res < 60 ? res - 1 : res;
}

/**
 * Scans the sheet's XML: each non-empty row's cells (gaps from the r="B7" references filled with '') go to onRow, in
 * order. Rows must come in order (a stream cannot sort them); within a row a cell may come in any order.
 */
function sheetScanner(sst: SharedStrings | null, date1904: boolean, limits: XlsxLimits, onRow: (cells: XlsxCell[]) => void): XmlScanner {
  const { fail } = limits;
  const rawCap = limits.maxCellChars * 8;
  let inData = false;
  let rowNo = 0;
  let inRow = false;
  let cells: XlsxCell[] = [];
  let any = false;
  let kept = 0;
  let col = -1;
  // The cell being read.
  let inCell = false;
  let cellTag = '';
  let cellCol = 0;
  let target: 'v' | 'f' | 't' | null = null;
  let v: string | null = null;
  let f: string | null = null;
  let fTag = '';
  let inIs = false;
  let isText: string | null = null;
  let phonetic = 0;
  const shared = new Map<string, { formula: string; row: number; col: number }>();

  const tooLong = () => fail(413, 'cell_too_large', `A cell in row ${kept + 1} is longer than ${limits.maxCellChars} characters`);

  const endCell = () => {
    const t = attr(cellTag, 't');
    let formula: string | undefined;
    if (f !== null && f !== '') {
      formula = unescapeXml(f, true).replace(/_xlfn\./g, '');
      if (/(^|\s)t\s*=\s*["']shared["']/.test(fTag)) {
        const si = attr(fTag, 'si');
        if (si !== undefined) shared.set(si, { formula: unescapeXml(f, false).replace(/_xlfn\./g, ''), row: rowNo, col: cellCol });
      }
    } else if (f !== null && /(^|\s)t\s*=\s*["']shared["']/.test(fTag)) {
      const master = shared.get(attr(fTag, 'si') ?? '');
      if (master) formula = shiftFormula(master.formula, rowNo - master.row, cellCol - master.col, fail);
    }
    const raw: string | undefined = v !== null && v !== '' ? unescapeXml(v, false) : undefined;
    // A cell without a value and a type is skipped, formula or not (SheetJS gives a formula a 0 there, which it then
    // skips as an empty number: 0 == '').
    if (t === undefined && raw === undefined) return;
    let value: XlsxCell;
    switch (t ?? 'n') {
      case 'n':
        if (raw === undefined) return;
        value = parseFloat(raw);
        break;
      case 's': {
        if (raw === undefined) return;
        const s = sst?.get(parseInt(raw, 10));
        if (s === undefined) throw fail(400, 'file_unreadable', `${LABEL} is damaged (a cell in row ${rowNo} refers to a text that is not in it)`);
        value = s;
        break;
      }
      case 'str':
        value = raw === undefined ? '' : unescapeXml(raw, true);
        break;
      case 'inlineStr':
        value = isText === null ? '' : unescapeXml(isText, true);
        break;
      case 'b':
        value = raw === '1' || raw === 'true';
        break;
      case 'd':
        value = raw === undefined ? NaN : dateSerial(raw, date1904);
        break;
      case 'e':
        value = raw ?? '';
        break;
      default:
        value = raw ?? '';
    }
    if (formula) value = `=${formula}`;
    if (cellCol >= limits.maxColumns) throw fail(413, 'too_many_columns', `The file has more than ${limits.maxColumns} columns`);
    if (typeof value === 'string' && value.length > limits.maxCellChars) throw tooLong();
    while (cells.length < cellCol) cells.push('');
    cells[cellCol] = value;
    if (value !== '') any = true;
  };

  return new XmlScanner(
    {
      open(name, tag, selfClosing) {
        if (inCell) {
          if (name === 'is') {
            inIs = true;
            isText = '';
          } else if (name === 'rPh') phonetic++;
          else if (selfClosing) {
            if (name === 'f') {
              f = '';
              fTag = tag;
            }
          } else if (name === 'v' && !inIs) {
            target = 'v';
            v = '';
          } else if (name === 'f' && !inIs) {
            target = 'f';
            f = '';
            fTag = tag;
          } else if (name === 't' && inIs && phonetic === 0) target = 't';
          return;
        }
        if (name === 'sheetData') inData = !selfClosing;
        else if (!inData) return;
        else if (name === 'row') {
          const r = attr(tag, 'r');
          const next = r !== undefined ? parseInt(r, 10) : rowNo + 1;
          if (!(next > rowNo)) throw fail(400, 'file_unreadable', `${LABEL}'s rows are out of order (row ${r} after row ${rowNo}); save it again with Excel`);
          rowNo = next;
          inRow = true;
          cells = [];
          any = false;
          col = -1;
        } else if (name === 'c' && inRow) {
          const r = attr(tag, 'r');
          col = r !== undefined ? colOf(r) : col + 1;
          inCell = true;
          cellTag = tag;
          cellCol = col;
          target = null;
          v = null;
          f = null;
          fTag = '';
          inIs = false;
          isText = null;
          phonetic = 0;
        }
      },
      close(name) {
        if (inCell) {
          if (name === 'c') {
            inCell = false;
            endCell();
          } else if (name === 'is') inIs = false;
          else if (name === 'rPh') phonetic = Math.max(0, phonetic - 1);
          else if (name === 'v' || name === 'f' || name === 't') target = null;
          return;
        }
        if (name === 'row' && inRow) {
          inRow = false;
          if (any) {
            kept++;
            onRow(cells);
          }
        } else if (name === 'sheetData') inData = false;
      },
      wantsText: () => target !== null,
      text(raw) {
        if (target === 'v') v += raw;
        else if (target === 'f') f += raw;
        else isText += raw;
        if ((target === 'v' ? v! : target === 'f' ? f! : isText!).length > rawCap) throw tooLong();
      },
    },
    (message) => fail(400, 'file_unreadable', `${LABEL}'s sheet is damaged: the XML ${message}`),
  );
}

/** A path inside the zip from a relationship's target (relative to the part's folder, or absolute). */
function resolvePart(from: string, target: string): string {
  const parts = (target.startsWith('/') ? target.slice(1) : `${from}${target}`).split('/');
  const out: string[] = [];
  for (const p of parts) {
    if (p === '..') out.pop();
    else if (p !== '.' && p !== '') out.push(p);
  }
  return out.join('/');
}

const relationships = (xml: string) =>
  elements(xml, 'Relationship').map((tag) => ({ id: attr(tag, 'Id') ?? '', type: attr(tag, 'Type') ?? '', target: attr(tag, 'Target') ?? '' }));

/**
 * Reads the first sheet of an xlsx file on disk, row by row: onRow gets each non-empty row's cells, after which `after`
 * is awaited (the caller hands full windows of rows on there, which holds the reading back). Returns false, having read
 * nothing, when the zip is not a workbook this reader knows (a binary .xlsb workbook): the caller reads it whole.
 */
export async function readXlsxRows(
  file: string | Uint8Array,
  limits: XlsxLimits,
  onRow: (cells: XlsxCell[]) => void,
  after: () => Promise<void>,
): Promise<boolean> {
  const { fail } = limits;
  const src = typeof file === 'string' ? await fileSource(file) : bytesSource(file);
  try {
    const members = await directory(src, limits);
    const byName = new Map(members.map((m) => [m.name.toLowerCase(), m]));
    const member = (name: string) => byName.get(name.toLowerCase());

    const rootRels = member('_rels/.rels');
    const officeDocument = rootRels ? relationships(await smallPart(src, rootRels, limits)).find((r) => r.type.endsWith('/officeDocument')) : undefined;
    const workbookPath = officeDocument ? resolvePart('', officeDocument.target) : 'xl/workbook.xml';
    if (!workbookPath.toLowerCase().endsWith('.xml')) return false;
    const workbookMember = member(workbookPath);
    // No workbook part where it should be: SheetJS (the whole-file reader) says what is wrong with it.
    if (!workbookMember) return false;
    const workbook = await smallPart(src, workbookMember, limits);
    const folder = workbookPath.includes('/') ? workbookPath.slice(0, workbookPath.lastIndexOf('/') + 1) : '';
    const relsMember = member(`${folder}_rels/${workbookPath.slice(folder.length)}.rels`);
    const rels = relsMember ? relationships(await smallPart(src, relsMember, limits)) : [];

    const firstSheet = elements(workbook, 'sheet')[0];
    if (firstSheet === undefined) throw fail(400, 'file_unreadable', `${LABEL} has no sheet`);
    const sheetRel = rels.find((r) => r.id === attr(firstSheet, 'id'));
    const sheetMember = sheetRel ? member(resolvePart(folder, sheetRel.target)) : undefined;
    if (!sheetMember)
      throw fail(400, 'file_unreadable', `${LABEL} is damaged: its first sheet (${JSON.stringify((attr(firstSheet, 'name') ?? '').slice(0, 60))}) is missing`);
    const pr = elements(workbook, 'workbookPr')[0];
    const date1904 = pr !== undefined && ['1', 'true'].includes(attr(pr, 'date1904') ?? '');

    const sstRel = rels.find((r) => r.type.endsWith('/sharedStrings'));
    const sstMember = sstRel ? member(resolvePart(folder, sstRel.target)) : member(`${folder}sharedStrings.xml`);
    const sst = sstMember
      ? await readSharedStrings(memberBytes(src, sstMember, limits.sharedStringsMaxBytes ?? SHARED_STRINGS_MAX_BYTES, limits), limits)
      : null;

    await scan(memberBytes(src, sheetMember, limits.sheetMaxBytes ?? SHEET_MAX_BYTES, limits), sheetScanner(sst, date1904, limits, onRow), after);
    return true;
  } finally {
    await src.close();
  }
}
