// A list's total as the API sends it (apps/api/src/lib/pagination.ts): exact, or estimated (count_estimated) for a list of
// more than 10,000 matches without a counter, which the console shows as "about 1,000,000". Pages start within the first
// 10,000 rows of a list (deeper pages are a 400), so the pager reaches no further.
import { formatNumber } from '../../lib/formatters';
import { t } from '../../i18n';
import { uiText as m } from './ui.messages';

export type ListTotal = { count: number; count_estimated?: true };

/** A page must start within this many rows of a list's order. */
export const MAX_LIST_ROWS = 10_000;

/** The count as text: "1,234", or "about 1,000,000" when estimated. */
export const countText = (count: number, estimated: boolean): string => (estimated ? t(m.about, { count: formatNumber(count) }) : formatNumber(count));

/** The footer: "1-10 of 1,234", "1-10 of about 1,000,000". */
export const rangeText = (from: number, to: number, count: number, estimated: boolean): string =>
  t(m.range, { from: formatNumber(from), to: formatNumber(to), total: countText(count, estimated) });

/** The pager's total: the rows its pages can reach. */
export const pagerTotal = (count: number): number => Math.min(count, MAX_LIST_ROWS);

/** A count prop (a number, or the API's page) as count and flag. */
export function readTotal(total: number | ListTotal | undefined): { count: number | undefined; estimated: boolean } {
  if (total === undefined || typeof total === 'number') return { count: total, estimated: false };
  return { count: total.count, estimated: total.count_estimated === true };
}
