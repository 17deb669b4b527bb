// A plot-risk verdict and its geolocation warnings as short labels (the console's accessible status tags), with the
// words the screens and the due-diligence report share.
import type { EudrWarning, PlotRiskLevel } from '@farmland/contracts';
import { StatusTag } from '../../../components/ui/status-tag';

export const VERDICT_LABELS: Record<PlotRiskLevel, string> = { low: 'Low risk', review: 'Needs review', high: 'High risk' };
export const VERDICT_COLORS: Record<PlotRiskLevel, string> = { low: '#2b9348', review: '#f77f00', high: '#d62828' };
export const WARNING_LABELS: Record<EudrWarning, string> = {
  has_holes: 'Polygon with holes',
  invalid_geometry: 'Invalid boundary',
  low_precision: 'Fewer than 6 decimals',
  point_over_4ha: 'Point for a plot over 4 ha',
};

const TONE = { low: 'good', review: 'neutral', high: 'bad' } as const;

export function VerdictLabel({ level }: { level: PlotRiskLevel }) {
  return (
    <StatusTag tone={TONE[level]} testId={`verdict-${level}`}>
      {VERDICT_LABELS[level]}
    </StatusTag>
  );
}
