// The drop zone's reasons for refusing a file (issue 33): the type first, then the size against the limit, each naming
// the file; an accepted file has none.
import { describe, expect, it } from 'vitest';
import { rejectionOf } from './upload-zone';

const SHEETS = ['.csv', '.xls', '.xlsx'] as const;
const LIMIT = 3_145_728;

describe('rejectionOf', () => {
  it('names the file and the accepted types when the type is wrong', () => {
    expect(rejectionOf({ name: 'farmers.pdf', size: 10 }, SHEETS, LIMIT)).toBe(
      '“farmers.pdf” was not taken: only CSV, XLS or XLSX files can be uploaded here.',
    );
    expect(rejectionOf({ name: 'farmers.csv.exe', size: 10 }, SHEETS, LIMIT)).toMatch(/only CSV, XLS or XLSX/);
  });
  it('gives the size and the limit when the file is too large', () => {
    expect(rejectionOf({ name: 'big.xlsx', size: 4_404_019 }, SHEETS, LIMIT)).toBe('“big.xlsx” was not taken: it is 4.2 MB, and the limit is 3 MB.');
    // Just over the limit: in bytes, so the two numbers differ
    expect(rejectionOf({ name: 'big.csv', size: LIMIT + 1 }, SHEETS, LIMIT)).toBe(
      '“big.csv” was not taken: it is 3,145,729 bytes, and the limit is 3 MB (3,145,728 bytes).',
    );
  });
  it('has nothing to say about an accepted file, at the limit and in any case', () => {
    expect(rejectionOf({ name: 'FARMERS.CSV', size: LIMIT }, SHEETS, LIMIT)).toBeNull();
  });
});
