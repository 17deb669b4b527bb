// The csv reader: RFC 4180 (quoted cells may hold delimiters, quotes and newlines), the delimiter guessed from the first
// line (comma, semicolon or tab), UTF-8 or else Latin-1, read whole or fed in pieces; columns and cell sizes capped.
import { MAX_CELL_CHARS, MAX_COLUMNS, MAX_ROWS, ParseError, tooManyRows } from './limits.js';

/** Bytes → text: UTF-8 when valid, else Latin-1 (Excel's "CSV" export in a Western locale); a leading BOM dropped. */
export function decodeText(buf: Uint8Array): string {
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
  new CsvRows(
    maxRows,
    (row) => void rows.push(row),
    () => tooManyRows(maxRows - 1),
  ).push(text, true);
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
    if (this.cell.length > MAX_CELL_CHARS)
      throw new ParseError(413, 'cell_too_large', `A cell in row ${this.count + 1} is longer than ${MAX_CELL_CHARS} characters`);
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
        if (this.cell.length > MAX_CELL_CHARS)
          throw new ParseError(413, 'cell_too_large', `A cell in row ${this.count + 1} is longer than ${MAX_CELL_CHARS} characters`);
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
