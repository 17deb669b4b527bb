import { describe, expect, it } from 'vitest';
import { countText, pagerTotal, rangeText, readTotal } from './list-total';

describe('list totals', () => {
  it('shows exact counts as they are and estimated ones as "about"', () => {
    expect(countText(540, false)).toBe('540');
    expect(countText(1_000_000, true)).toBe('about 1,000,000');
    expect(rangeText(1, 10, 160, false)).toBe('1-10 of 160');
    expect(rangeText(11, 20, 1_000_540, true)).toBe('11-20 of about 1,000,540');
  });

  it('reads a number or the API page, and pages no further than the first 10,000 rows', () => {
    expect(readTotal(undefined)).toEqual({ count: undefined, estimated: false });
    expect(readTotal(42)).toEqual({ count: 42, estimated: false });
    expect(readTotal({ count: 12_345 })).toEqual({ count: 12_345, estimated: false });
    expect(readTotal({ count: 12_345, count_estimated: true })).toEqual({ count: 12_345, estimated: true });
    expect(pagerTotal(160)).toBe(160);
    expect(pagerTotal(1_000_000)).toBe(10_000);
  });
});
