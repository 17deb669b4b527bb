// The words and colours the readiness screens add to the shared EUDR ones (components/eudr): the geolocation warnings
// and a verdict's chart colour; the verdict's words and tag come from components/eudr.
import type { EudrWarning, PlotRiskLevel } from '@farmland/contracts';
import { RISK_LABEL } from '../../../components/eudr/eudr-labels';
import { geolocationChecksText } from '../../../components/eudr/geolocation-checks.messages';
import { t } from '../../../i18n';

export const VERDICT_LABELS: Record<PlotRiskLevel, string> = RISK_LABEL;
export const VERDICT_COLORS: Record<PlotRiskLevel, string> = { low: '#2b9348', review: '#f77f00', high: '#d62828' };
export const WARNING_LABELS: Record<EudrWarning, string> = {
  has_holes: 'Polygon with holes',
  invalid_geometry: 'Invalid boundary',
  low_precision: 'Fewer than 6 decimals',
  point_over_4ha: 'Point for a plot over 4 ha',
  // Issue 29 (read when shown, in the chosen language).
  get outside_country() {
    return t(geolocationChecksText.outsideCountry);
  },
};
