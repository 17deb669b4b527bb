// The plot-risk verdict as a tag: a text label (never colour alone) in the theme's success, warning or error colours.
import Tag from 'antd/es/tag';
import type { PlotRiskLevel } from '@farmland/contracts';
import { RISK_LABEL, RISK_TAG_COLOR } from './eudr-labels';
import { t } from '../../i18n';
import { eudrText as m } from './eudr.messages';
import { textMap } from '../../lib/text-map';

type Props = {
  level: PlotRiskLevel;
  /** A shorter text for tight rows: "Low", "Review", "High". */
  short?: boolean;
  testId?: string;
};

const SHORT = textMap({ low: m.shortLow, review: m.shortReview, high: m.shortHigh });

export function VerdictTag({ level, short = false, testId = 'verdict-tag' }: Props) {
  return (
    <Tag color={RISK_TAG_COLOR[level]} data-testid={testId} data-level={level} title={t(m.tagTitle, { level: RISK_LABEL[level] })}>
      {short ? SHORT[level] : RISK_LABEL[level]}
    </Tag>
  );
}
