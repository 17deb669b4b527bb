// CSV encoding for exports (RFC 4180 quoting), with spreadsheet formula injection neutralised: a cell that starts
// with = + - @, a tab or a carriage return gets a leading single quote, so Excel or Sheets shows it as text.
export type Cell = string | number | boolean | Date | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;

export function neutralise(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

export function csvCell(value: Cell): string {
  if (value === null || value === undefined) return '';
  // Numbers and booleans are written as themselves: a negative number is data, not a formula.
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const text = neutralise(value instanceof Date ? value.toISOString() : value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(cells: readonly Cell[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
