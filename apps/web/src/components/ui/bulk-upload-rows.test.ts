// The correction table's data: which rows count as fixed, the csv built from them (quoted so coordinates and commas
// survive), and how the answer to that csv maps back onto the table's original row numbers.
import { describe, expect, it } from 'vitest';
import type { FailedRow } from '@farmland/contracts';
import { afterResubmit, cellValue, csvCell, discardWarning, firstError, fixedRows, otherErrors, rowsToCsv } from './bulk-upload-rows';

const rows: FailedRow[] = [
  {
    row: 2,
    row_data: { first_name: 'Ada', last_name: '', email: 'ada@example.com', note: 'keep me' },
    errors: { last_name: ['Last name is required', 'second'] },
  },
  {
    row: 5,
    row_data: { first_name: 'Bo', last_name: 'Lee', email: 'not-an-email', note: '' },
    errors: { email: ['Enter a valid email address'], row: ['Whole row'] },
  },
  { row: 7, row_data: { first_name: 'Cy', last_name: 'Obi', email: 'x', note: '' }, errors: { email: ['Enter a valid email address'] } },
];
const columns = ['first_name', 'last_name', 'email'];

describe('bulk upload correction rows', () => {
  it('quotes a cell only when it must, doubling quotes', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('[[3.7,7.6],[3.8,7.6]]')).toBe('"[[3.7,7.6],[3.8,7.6]]"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(' edge')).toBe('" edge"');
    expect(csvCell('')).toBe('');
  });

  it('counts a row as fixed only when a cell differs from the upload', () => {
    expect(fixedRows(rows, {})).toEqual([]);
    expect(fixedRows(rows, { 2: { last_name: '' } })).toEqual([]);
    expect(fixedRows(rows, { 2: { last_name: 'Obi' }, 7: { email: 'x' } }).map((r) => r.row)).toEqual([2]);
    expect(cellValue(rows[0]!, 'last_name', { 2: { last_name: 'Obi' } })).toBe('Obi');
    expect(cellValue(rows[0]!, 'email', { 2: { last_name: 'Obi' } })).toBe('ada@example.com');
  });

  it("builds a csv of the fixed rows: creation columns first, then the file's other columns, edits applied", () => {
    const edits = { 2: { last_name: 'Obi, Jr' }, 5: { email: 'bo@example.com' } };
    const csv = rowsToCsv(fixedRows(rows, edits), columns, edits);
    expect(csv).toBe('first_name,last_name,email,note\r\nAda,"Obi, Jr",ada@example.com,keep me\r\nBo,Lee,bo@example.com,\r\n');
  });

  it('maps the answer back: created rows leave, rows failing again keep their number, unsent rows stay', () => {
    const sent = [rows[0]!, rows[1]!];
    // The answer numbers rows within the sent csv: its row 2 is the table's row 5.
    const next = afterResubmit(rows, sent, {
      failed_rows: [{ row: 2, row_data: { first_name: 'Bo', last_name: 'Lee', email: 'bo@' }, errors: { email: ['Enter a valid email address'] } }],
    });
    expect(next.map((r) => r.row)).toEqual([5, 7]);
    expect(next[0]!.row_data['email']).toBe('bo@');
    expect(next[1]).toBe(rows[2]);
    expect(afterResubmit(rows, rows, { failed_rows: [] })).toEqual([]);
  });

  it('gives the first error of a cell, and the errors no column shows', () => {
    expect(firstError(rows[0]!, 'last_name')).toBe('Last name is required');
    expect(firstError(rows[0]!, 'email')).toBeUndefined();
    expect(otherErrors(rows[1]!, columns)).toEqual(['row: Whole row']);
    expect(otherErrors(rows[0]!, columns)).toEqual([]);
  });

  it('asks before closing only while failed rows are left, counting the fixed ones not yet sent', () => {
    expect(discardWarning(null, {})).toBeNull();
    expect(discardWarning([], {})).toBeNull();
    const all = discardWarning(rows, {});
    expect(all?.title).toBe('Discard 3 failed rows?');
    expect(all?.text).toBe(
      '3 rows have not been created. If you close now, they are discarded with your changes in the table; to add them later, upload them again from your file.',
    );
    expect(all?.fixedNotSent).toBeNull();
    const one = discardWarning([rows[0]!], { 2: { last_name: 'Obi' } });
    expect(one?.title).toBe('Discard 1 failed row?');
    expect(one?.text).toMatch(/^1 row has not been created\. If you close now, it is discarded/);
    expect(one?.fixedNotSent).toBe('1 of them is fixed but not submitted: choose Keep editing, then Submit fixed rows, to create it.');
    // An edit back to the uploaded text is no fix.
    expect(discardWarning(rows, { 5: { email: 'not-an-email' } })?.fixedNotSent).toBeNull();
  });
});
