// The configuration form's checks: numbers as people type them, and the limits the API also enforces.
import { describe, expect, it } from 'vitest';
import { setLocaleForTest } from '../../../i18n/locale';
import { minimumSizeProblem, overlapAreaProblem, overlapSharePercentProblem, readNumber, sharePercent, thresholdProblem, typed } from './configurations-form';

describe('configuration checks', () => {
  it('reads numbers with separators, and nothing else', () => {
    expect(readNumber('1,000')).toBe(1000);
    expect(readNumber(' 2 500.5 ')).toBe(2500.5);
    expect(readNumber('.5')).toBe(0.5);
    expect(readNumber('12abc')).toBeNull();
    expect(readNumber('')).toBeNull();
    expect(readNumber('1e3')).toBeNull();
  });
  it('reads the French forms in French: a decimal comma and spaces between thousands', () => {
    setLocaleForTest('fr');
    try {
      expect(readNumber('0,5')).toBe(0.5);
      expect(readNumber('1 000,25')).toBe(1000.25);
      expect(readNumber('1\u202f000')).toBe(1000);
      expect(readNumber('0.5')).toBe(0.5);
      expect(readNumber('1,2,3')).toBeNull();
      // the form shows the saved values the same way, and reads them back
      expect(typed('0.5')).toBe('0,5');
      expect(readNumber(typed(sharePercent(0.025)))).toBe(2.5);
    } finally {
      setLocaleForTest('en');
    }
    expect(typed('0.5')).toBe('0.5');
  });
  it('names a negative or non-numeric minimum size, and a threshold outside (0, 1]', () => {
    expect(minimumSizeProblem('-1')).toBe('Minimum farm size cannot be negative');
    expect(minimumSizeProblem('abc')).toMatch(/Enter a number/);
    expect(minimumSizeProblem('0')).toBeNull();
    expect(thresholdProblem('0')).toMatch(/greater than 0/);
    expect(thresholdProblem('1.01')).toMatch(/at most 1/);
    expect(thresholdProblem('x')).toMatch(/Enter a number/);
    expect(thresholdProblem('1')).toBeNull();
  });
  it('names a bad overlap tolerance, and shows a share as a percentage without float noise', () => {
    expect(overlapAreaProblem('-0.5')).toBe('The minimum overlap area cannot be negative');
    expect(overlapAreaProblem('x')).toMatch(/Enter a number/);
    expect(overlapAreaProblem('0')).toBeNull();
    expect(overlapSharePercentProblem('101')).toBe('The minimum overlap share must be at most 100 %');
    expect(overlapSharePercentProblem('-1')).toBe('The minimum overlap share cannot be negative');
    expect(overlapSharePercentProblem('2.5')).toBeNull();
    expect(sharePercent(0.01)).toBe('1');
    expect(sharePercent(0.07)).toBe('7');
    expect(sharePercent(0.005)).toBe('0.5');
  });
});
