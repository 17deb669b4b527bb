// The words and colours the readiness screens use for a plot-risk verdict and the geolocation warnings, from the
// eudrReports catalogue (the verdict's tag comes from components/eudr).
import type { EudrWarning, PlotRiskLevel, PlotRiskReasonItem } from '@farmland/contracts';
import { t, type Text } from '../../../i18n';
import { geolocationChecksText } from '../../../components/eudr/geolocation-checks.messages';
import { eudrReportsText as m } from '../eudr-reports.messages';

const VERDICT_TEXT: Record<PlotRiskLevel, Text> = { low: m.verdictLow, review: m.verdictReview, high: m.verdictHigh };
const WARNING_TEXT: Record<EudrWarning, Text> = {
  has_holes: m.warnHoles,
  invalid_geometry: m.warnInvalid,
  low_precision: m.warnPrecision,
  point_over_4ha: m.warnPoint,
  outside_country: geolocationChecksText.outsideCountry,
};

export const verdictLabel = (level: PlotRiskLevel): string => t(VERDICT_TEXT[level]);
export const warningLabel = (warning: EudrWarning): string => t(WARNING_TEXT[warning]);
export const VERDICT_COLORS: Record<PlotRiskLevel, string> = { low: '#2b9348', review: '#f77f00', high: '#d62828' };

/**
 * A verdict's reason in the page's language: the reasons without figures by their code; the others (they name a layer
 * and its figures) as the server wrote them.
 */
export function reasonText(r: Pick<PlotRiskReasonItem, 'code' | 'message'>): string {
  if (r.code === 'no_forest_layer') return t(m.reasonNoForestLayer);
  if (r.code === 'no_overlap') return t(m.reasonNoOverlap);
  const pending = r.code === 'not_screened' ? /(\d+) layer/.exec(r.message) : null;
  if (pending) return t(m.reasonNotScreened, { count: Number(pending[1]), n: pending[1] });
  return r.message;
}
