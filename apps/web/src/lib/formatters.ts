// Display formats of docs/requirements.md §9: dates DD/MM/YYYY and h:mm A, numbers grouped with commas, compact numbers to 2 decimals,
// areas in sqm to 2 decimals with hectares, hh:mm:ss as "x hr, y m, z s", and prices in Nigerian naira (NGN). In French
// (docs/decisions/0088-console-languages.md): numbers as 1 234,56, times as 14:07, and the units m², ha and "h, min, s".
import dayjs from 'dayjs';
import { currentLocale, formatLocale } from '../i18n/locale';
import { t } from '../i18n';
import { formatText as m } from './formatters.messages';

export const DATE_FORMAT = 'DD/MM/YYYY';
export const TIME_FORMAT = 'h:mm A';
/** French times: 24-hour, as francophone West Africa writes them. */
const TIME_FORMAT_FR = 'HH:mm';
const timeFormat = () => (currentLocale() === 'fr' ? TIME_FORMAT_FR : TIME_FORMAT);
export const DEFAULT_CURRENCY = 'NGN';
export const SQM_PER_HECTARE = 10_000;

const EMPTY = '--';

function toDayjs(value: string | number | Date | null | undefined): dayjs.Dayjs | null {
  if (value === null || value === undefined || value === '') return null;
  const d = dayjs(value);
  return d.isValid() ? d : null;
}

export function formatDate(value: string | number | Date | null | undefined): string {
  return toDayjs(value)?.format(DATE_FORMAT) ?? EMPTY;
}

export function formatTime(value: string | number | Date | null | undefined): string {
  return toDayjs(value)?.format(timeFormat()) ?? EMPTY;
}

export function formatDateTime(value: string | number | Date | null | undefined): string {
  return toDayjs(value)?.format(`${DATE_FORMAT} ${timeFormat()}`) ?? EMPTY;
}

/** 1234567.891 → "1,234,567.89" with the given decimals (default: as many as the number has, up to 20). */
export function formatNumber(value: number | null | undefined, decimals?: number): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return EMPTY;
  const opts: Intl.NumberFormatOptions =
    decimals === undefined ? { maximumFractionDigits: 20 } : { minimumFractionDigits: decimals, maximumFractionDigits: decimals };
  return new Intl.NumberFormat(formatLocale(), opts).format(value);
}

/** 1234 → "1.23K", 2500000 → "2.5M": compact, at most 2 decimals. */
export function formatCompact(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return EMPTY;
  return new Intl.NumberFormat(formatLocale(), { notation: 'compact', maximumFractionDigits: 2 }).format(value);
}

export const toHectares = (sqm: number): number => sqm / SQM_PER_HECTARE;

/** 12345.678 → "12,345.68 sqm". */
export function formatSqm(sqm: number | null | undefined): string {
  return sqm === null || sqm === undefined || !Number.isFinite(sqm) ? EMPTY : t(m.sqm, { value: formatNumber(sqm, 2) });
}

/** 12345.678 sqm → "1.23 ha" (decimals default 2; totals of agents and farmers use 4). */
export function formatHectares(sqm: number | null | undefined, decimals = 2): string {
  return sqm === null || sqm === undefined || !Number.isFinite(sqm) ? EMPTY : t(m.hectares, { value: formatNumber(toHectares(sqm), decimals) });
}

/** "12,345.68 sqm (1.23 ha)". */
export function formatArea(sqm: number | null | undefined): string {
  return sqm === null || sqm === undefined || !Number.isFinite(sqm) ? EMPTY : `${formatSqm(sqm)} (${formatHectares(sqm)})`;
}

/** "01:02:03" (hh:mm:ss) or a number of seconds → "1 hr, 2 m, 3 s". */
export function formatDuration(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return EMPTY;
  let seconds: number;
  if (typeof value === 'number') seconds = Math.max(0, Math.round(value));
  else {
    const m = /^(\d+):([0-5]?\d):([0-5]?\d)$/.exec(value.trim());
    if (!m) return EMPTY;
    seconds = Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]);
  }
  const h = Math.floor(seconds / 3600);
  const min = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return t(m.duration, { hours: h, minutes: min, seconds: s });
}

/** 220000 → "₦220,000.00" (Nigerian naira by default, docs/requirements.md §9). */
export function formatCurrency(amount: number | string | null | undefined, currency: string = DEFAULT_CURRENCY): string {
  const n = typeof amount === 'string' ? Number(amount.replace(/,/g, '')) : amount;
  if (n === null || n === undefined || !Number.isFinite(n)) return EMPTY;
  return new Intl.NumberFormat(currentLocale() === 'fr' ? 'fr-FR' : 'en-NG', {
    style: 'currency',
    currency,
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(n);
}
