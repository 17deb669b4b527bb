// i18n: pending (texts not yet in the catalogue: docs/decisions/console-languages.md)
// An agent's progress as the spec defines it (§9): mapped farms ÷ farmers registered × 100, one decimal, 0 with no
// farmers. It passes 100 % when an agent maps several farms per farmer, so the bar (which cannot go past full) comes
// with a tooltip that gives the formula and the agent's own numbers.
import Progress from 'antd/es/progress';
import Tooltip from 'antd/es/tooltip';
import { formatNumber } from '../../lib/formatters';
import { percentText } from './status-tag';

type Props = { progress: number; mapped: number; farmers: number };

export function progressExplanation({ progress, mapped, farmers }: Props): string {
  const base = `Progress = mapped farms ÷ farmers registered × 100: ${formatNumber(mapped)} ÷ ${formatNumber(farmers)}`;
  if (farmers === 0) return 'Progress = mapped farms ÷ farmers registered × 100; 0% while the agent has registered no farmers.';
  if (progress > 100) return `${base} = ${progress.toFixed(1)}%. Over 100% means more farms mapped than farmers registered (several farms per farmer).`;
  return `${base} = ${progress.toFixed(1)}%.`;
}

/** The bar (full at 100 % and above) with the percentage, explained on hover or focus. */
export function AgentProgressBar({ size, ...p }: Props & { size?: 'small' | 'default' }) {
  return (
    <Tooltip title={progressExplanation(p)}>
      <span tabIndex={0} className="block" data-testid="agent-progress" aria-label={`Progress ${p.progress.toFixed(1)}%: ${progressExplanation(p)}`}>
        <Progress percent={Math.min(p.progress, 100)} size={size ?? 'default'} format={() => percentText(p.progress)} aria-label={`Progress ${p.progress.toFixed(1)}%`} />
      </span>
    </Tooltip>
  );
}

/** The percentage alone (a ranking cell), explained on hover or focus. */
export function AgentProgressText(p: Props) {
  return (
    <Tooltip title={progressExplanation(p)}>
      <span tabIndex={0} style={{ borderBottom: '1px dotted rgba(0,0,0,0.45)', cursor: 'help' }}>
        {percentText(p.progress)}
      </span>
    </Tooltip>
  );
}
