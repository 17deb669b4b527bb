// The display formats of docs/requirements.md §9.
import { afterAll, describe, expect, it } from 'vitest';
import { setMessagesForTest } from '../i18n';
import { setLocaleForTest } from '../i18n/locale';
import formatFr from './formatters.messages.fr';
import {
  formatArea,
  formatCompact,
  formatCurrency,
  formatDate,
  formatDateTime,
  formatDuration,
  formatHectares,
  formatNumber,
  formatSqm,
  formatTime,
} from './formatters';

describe('formatters', () => {
  it('formats dates as DD/MM/YYYY and times as h:mm A', () => {
    const d = new Date(2026, 0, 5, 14, 7);
    expect(formatDate(d)).toBe('05/01/2026');
    expect(formatTime(d)).toBe('2:07 PM');
    expect(formatDateTime(d)).toBe('05/01/2026 2:07 PM');
    expect(formatDate(null)).toBe('--');
    expect(formatDate('not a date')).toBe('--');
  });

  it('groups numbers with commas and compacts to 2 decimals', () => {
    expect(formatNumber(1234567.891)).toBe('1,234,567.891');
    expect(formatNumber(1234567.891, 2)).toBe('1,234,567.89');
    expect(formatNumber(0.5, 4)).toBe('0.5000');
    expect(formatCompact(1234)).toBe('1.23K');
    expect(formatCompact(2_500_000)).toBe('2.5M');
    expect(formatCompact(999)).toBe('999');
  });

  it('shows areas in sqm to 2 decimals with hectares', () => {
    expect(formatSqm(12345.678)).toBe('12,345.68 sqm');
    expect(formatHectares(12345.678)).toBe('1.23 ha');
    expect(formatHectares(12345.678, 4)).toBe('1.2346 ha');
    expect(formatArea(25000)).toBe('25,000.00 sqm (2.50 ha)');
  });

  it('shows hh:mm:ss as hr, m, s', () => {
    expect(formatDuration('01:02:03')).toBe('1 hr, 2 m, 3 s');
    expect(formatDuration('00:45:00')).toBe('0 hr, 45 m, 0 s');
    expect(formatDuration(3725)).toBe('1 hr, 2 m, 5 s');
    expect(formatDuration('soon')).toBe('--');
  });

  it('shows prices in Nigerian naira', () => {
    expect(formatCurrency(220000)).toBe('₦220,000.00');
    expect(formatCurrency('1,500.5')).toBe('₦1,500.50');
    expect(formatCurrency(null)).toBe('--');
  });
});

describe('formatters in French', () => {
  afterAll(() => {
    setLocaleForTest('en');
    setMessagesForTest('en', {});
  });

  it('uses French numbers, 24-hour times and the units m², ha and h, min, s', () => {
    setLocaleForTest('fr');
    setMessagesForTest('fr', formatFr);
    const d = new Date(2026, 0, 5, 14, 7);
    expect(formatDate(d)).toBe('05/01/2026');
    expect(formatTime(d)).toBe('14:07');
    expect(formatNumber(1234567.891, 2).replace(/\s/gu, ' ')).toBe('1 234 567,89');
    expect(formatSqm(12345.678).replace(/\s/gu, ' ')).toBe('12 345,68 m²');
    expect(formatHectares(12345.678)).toBe('1,23 ha');
    expect(formatDuration('01:02:03')).toBe('1 h, 2 min, 3 s');
  });
});
