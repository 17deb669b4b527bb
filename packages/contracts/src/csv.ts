// The one csv writer, for the API's exports and the csv files the console builds: RFC 4180 quoting (a cell holding a
// comma, a quote, a line break, or space at either end is quoted), CRLF line ends, and spreadsheet formula injection
// neutralised: a text cell that starts with = + - @, a tab or a carriage return gets a leading single quote, so Excel
// or Sheets shows it as text. A csv that goes back to the API itself (the bulk upload's corrected rows) keeps its text
// as typed: { formulas: 'keep' }, since a phone number such as +2348… is data there, not a formula.
export type CsvCell = string | number | boolean | Date | null | undefined;
export type CsvOptions = { formulas?: 'neutralise' | 'keep' };

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

/** A text a spreadsheet would read as a formula, made text. */
export function neutralise(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

export function csvCell(value: CsvCell, options: CsvOptions = {}): string {
  if (value === null || value === undefined) return '';
  // Numbers and booleans are written as themselves: a negative number is data, not a formula.
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const raw = value instanceof Date ? value.toISOString() : value;
  const text = options.formulas === 'keep' ? raw : neutralise(raw);
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One csv line, CRLF included. */
export function csvLine(cells: readonly CsvCell[], options: CsvOptions = {}): string {
  return `${cells.map((c) => csvCell(c, options)).join(',')}\r\n`;
}

/** A whole csv: the header, then the rows. */
export function toCsv(header: readonly CsvCell[], rows: readonly (readonly CsvCell[])[], options: CsvOptions = {}): string {
  return [header, ...rows].map((r) => csvLine(r, options)).join('');
}
