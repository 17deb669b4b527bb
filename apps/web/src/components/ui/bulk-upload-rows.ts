// The bulk-upload correction table's data, without React: the failed rows with the user's edits, the csv the browser
// builds from the fixed rows (sent to the same endpoint, in the same "file" field, so they go through exactly the same
// checks), and how the answer to that csv maps back onto the table (its row numbers count within the csv).
import type { BulkUploadResult, FailedRow } from '@farmland/contracts';
import { t } from '../../i18n';
import { uiText as m } from './ui.messages';

/** Edits per original row number, per column. */
export type RowEdits = Record<number, Record<string, string>>;

/** One csv cell (RFC 4180): quoted when it holds a comma, a quote, a line break or edge spaces. */
export function csvCell(value: string): string {
  return /[",\r\n]|^\s|\s$/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** The value a row has now: the user's edit, else the uploaded cell. */
export function cellValue(row: FailedRow, column: string, edits: RowEdits): string {
  return edits[row.row]?.[column] ?? row.row_data[column] ?? '';
}

/** The rows whose cells the user changed (a change back to the uploaded text is no change). */
export function fixedRows(rows: readonly FailedRow[], edits: RowEdits): FailedRow[] {
  return rows.filter((r) => Object.entries(edits[r.row] ?? {}).some(([c, v]) => v !== (r.row_data[c] ?? '')));
}

/**
 * A csv of the given rows: the creation columns first, then every other column the file had (so the user's own columns
 * survive), each row with its edits applied. CRLF line ends, like the templates.
 */
export function rowsToCsv(rows: readonly FailedRow[], columns: readonly string[], edits: RowEdits): string {
  const header = [...columns];
  for (const r of rows) for (const k of Object.keys(r.row_data)) if (!header.includes(k)) header.push(k);
  const lines = [header.map(csvCell).join(',')];
  for (const r of rows) lines.push(header.map((c) => csvCell(cellValue(r, c, edits))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/**
 * The table after re-submitting `sent`: rows not sent stay as they were; a sent row that failed again comes back with
 * its new cells and errors under its original row number (the answer numbers rows within the sent csv, from 1); a sent
 * row that was created leaves the table.
 */
export function afterResubmit(current: readonly FailedRow[], sent: readonly FailedRow[], result: Pick<BulkUploadResult, 'failed_rows'>): FailedRow[] {
  const again = new Map<number, FailedRow>();
  for (const f of result.failed_rows) {
    const original = sent[f.row - 1];
    if (original) again.set(original.row, { row: original.row, row_data: f.row_data, errors: f.errors });
  }
  const sentNumbers = new Set(sent.map((r) => r.row));
  return current.flatMap((r) => (sentNumbers.has(r.row) ? (again.has(r.row) ? [again.get(r.row)!] : []) : [r]));
}

/** The first error of a cell, if any (the table shows it on hover). */
export function firstError(row: FailedRow, column: string): string | undefined {
  return row.errors[column]?.[0];
}

/** Errors the creation columns cannot show (a whole-row problem, or a column the table does not edit). */
export function otherErrors(row: FailedRow, columns: readonly string[]): string[] {
  return Object.entries(row.errors)
    .filter(([k]) => !columns.includes(k))
    .map(([k, v]) => `${k}: ${v[0] ?? ''}`);
}

export type DiscardWarning = { title: string; text: string; fixedNotSent: string | null };

/**
 * What closing the modal would lose: null when nothing (no failed rows left), else the confirmation's text. The rows in
 * the table were never created, so closing discards them with the user's edits; they can only come back from the file.
 */
export function discardWarning(rows: readonly FailedRow[] | null, edits: RowEdits): DiscardWarning | null {
  if (!rows || rows.length === 0) return null;
  const n = rows.length;
  const fixed = fixedRows(rows, edits).length;
  return {
    title: t(m.discardTitle, { n }),
    text: t(m.discardText, { n }),
    fixedNotSent: fixed > 0 ? t(m.fixedNotSent, { fixed }) : null,
  };
}
