// A status label whose colours pass WCAG AA contrast (Ant Design's green preset does not: axe flags it): Active,
// Mapped (good), Suspended (bad), Unmapped (neutral).
import type { ReactNode } from 'react';
import { currentLocale } from '../../i18n';
import { formatNumber } from '../../lib/formatters';

// The tones' colours are in components/ui/ui.css (.status-tag[data-tone=…]).
type Tone = 'good' | 'bad' | 'neutral';

export function StatusTag({ tone, children, testId }: { tone: Tone; children: ReactNode; testId?: string }) {
  return (
    <span data-testid={testId} className="status-tag" data-tone={tone}>
      {children}
    </span>
  );
}

/** The percentage text beside a progress bar, in body text colour (the bar's own green text fails contrast). */
export function percentText(value: number, digits = 1): ReactNode {
  // French writes 12,5 % (a space before the sign); English keeps 12.5%.
  const text = currentLocale() === 'fr' ? `${formatNumber(value, digits)}\u00a0%` : `${value.toFixed(digits)}%`;
  return <span className="text-body">{text}</span>;
}
