// The words and colours the readiness screens use for a plot-risk verdict and the geolocation warnings, from the
// eudrReports catalogue (the verdict's tag comes from components/eudr).
import type { EudrWarning, PlotRiskLevel } from '@farmland/contracts';
import { t, type Text } from '../../../i18n';
import { eudrReportsText as m } from '../eudr-reports.messages';

const VERDICT_TEXT: Record<PlotRiskLevel, Text> = { low: m.verdictLow, review: m.verdictReview, high: m.verdictHigh };
const WARNING_TEXT: Record<EudrWarning, Text> = {
  has_holes: m.warnHoles,
  invalid_geometry: m.warnInvalid,
  low_precision: m.warnPrecision,
  point_over_4ha: m.warnPoint,
};

export const verdictLabel = (level: PlotRiskLevel): string => t(VERDICT_TEXT[level]);
export const warningLabel = (warning: EudrWarning): string => t(WARNING_TEXT[warning]);
export const VERDICT_COLORS: Record<PlotRiskLevel, string> = { low: '#2b9348', review: '#f77f00', high: '#d62828' };
