// An agent's progress as the spec defines it (§9): mapped farms ÷ farmers registered × 100, one decimal, 0 with no
// farmers. It passes 100 % when an agent maps several farms per farmer, so the bar (which cannot go past full) comes
// with a tooltip that gives the formula and the agent's own numbers.
import Progress from 'antd/es/progress';
import Tooltip from 'antd/es/tooltip';
import { formatNumber } from '../../lib/formatters';
import { percentText } from './status-tag';
import { currentLocale, t } from '../../i18n';
import { uiText as m } from './ui.messages';

/** One decimal, in the page's number form (English as before: 123.4). */
const pct = (value: number) => (currentLocale() === 'en' ? value.toFixed(1) : formatNumber(value, 1));

type Props = { progress: number; mapped: number; farmers: number };

export function progressExplanation({ progress, mapped, farmers }: Props): string {
  const base = t(m.progressBase, { mapped: formatNumber(mapped), farmers: formatNumber(farmers) });
  if (farmers === 0) return t(m.progressNoFarmers);
  if (progress > 100) return t(m.progressOver, { base, progress: pct(progress) });
  return t(m.progressIs, { base, progress: pct(progress) });
}

/** The bar (full at 100 % and above) with the percentage, explained on hover or focus. */
export function AgentProgressBar({ size, ...p }: Props & { size?: 'small' | 'default' }) {
  return (
    <Tooltip title={progressExplanation(p)}>
      <span
        tabIndex={0}
        className="block"
        data-testid="agent-progress"
        aria-label={t(m.progressLabel, { progress: pct(p.progress), explanation: progressExplanation(p) })}
      >
        <Progress
          percent={Math.min(p.progress, 100)}
          size={size ?? 'default'}
          format={() => percentText(p.progress)}
          aria-label={t(m.progressShort, { progress: pct(p.progress) })}
        />
      </span>
    </Tooltip>
  );
}

/** The percentage alone (a ranking cell), explained on hover or focus. */
export function AgentProgressText(p: Props) {
  return (
    <Tooltip title={progressExplanation(p)}>
      <span tabIndex={0} className="help-term">
        {percentText(p.progress)}
      </span>
    </Tooltip>
  );
}
