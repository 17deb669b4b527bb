// i18n: pending (texts not yet in the catalogue: docs/decisions/console-languages.md)
// The plot-risk verdict as a tag: a text label (never colour alone) in the theme's success, warning or error colours.
import Tag from 'antd/es/tag';
import type { PlotRiskLevel } from '@farmland/contracts';
import { RISK_LABEL, RISK_TAG_COLOR } from './eudr-labels';

type Props = {
  level: PlotRiskLevel;
  /** A shorter text for tight rows: "Low", "Review", "High". */
  short?: boolean;
  testId?: string;
};

const SHORT: Record<PlotRiskLevel, string> = { low: 'Low', review: 'Review', high: 'High' };

export function VerdictTag({ level, short = false, testId = 'verdict-tag' }: Props) {
  return (
    <Tag color={RISK_TAG_COLOR[level]} data-testid={testId} data-level={level} title={`EUDR plot risk: ${RISK_LABEL[level]}`}>
      {short ? SHORT[level] : RISK_LABEL[level]}
    </Tag>
  );
}
