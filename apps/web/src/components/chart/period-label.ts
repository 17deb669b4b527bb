// Period labels for chart axes and tooltips: the API's ISO periods read as month and day names (issue 33: raw "2026-03"
// and "11-27" on the axes). Other labels pass through unchanged.
import { currentLocale } from '../../i18n/locale';

/** Month and day names in the page's language (English as the spec shows them: "Mar 2026"). */
const dateLocale = () => (currentLocale() === 'fr' ? 'fr-FR' : 'en-GB');

const MONTH = /^(\d{4})-(\d{2})$/;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** "2026-03" → "Mar 2026"; "2026-11-27" → "Fri 27 Nov"; anything else as it is. */
export function periodLabel(label: string): string {
  const m = MONTH.exec(label);
  if (m) return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1)).toLocaleDateString(dateLocale(), { month: 'short', year: 'numeric', timeZone: 'UTC' });
  const d = DAY.exec(label);
  if (d)
    return new Date(Date.UTC(Number(d[1]), Number(d[2]) - 1, Number(d[3])))
      .toLocaleDateString(dateLocale(), { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' })
      .replace(',', '');
  return label;
}
