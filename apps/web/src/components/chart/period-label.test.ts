// Chart period labels: months and days by name, in UTC like the API's buckets.
import { describe, expect, it } from 'vitest';
import { periodLabel } from './period-label';

describe('periodLabel', () => {
  it('names months and days', () => {
    expect(periodLabel('2026-03')).toBe('Mar 2026');
    expect(periodLabel('2026-11-27')).toBe('Fri 27 Nov');
    expect(periodLabel('2024-02-29')).toBe('Thu 29 Feb');
  });
  it('leaves other labels alone', () => {
    expect(periodLabel('2026')).toBe('2026');
    expect(periodLabel('Jan')).toBe('Jan');
    expect(periodLabel('11-27')).toBe('11-27');
  });
});
