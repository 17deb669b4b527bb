// A status label whose colours pass WCAG AA contrast (Ant Design's green preset does not: axe flags it): Active,
// Mapped (good), Suspended (bad), Unmapped (neutral).
import type { ReactNode } from 'react';
import { currentLocale } from '../../i18n';
import { formatNumber } from '../../lib/formatters';

const TONES = {
  good: { color: '#14532b', background: '#e7f3ea', border: '#b7dcc1' },
  bad: { color: '#9f1c1c', background: '#fdecec', border: '#f3b8b8' },
  neutral: { color: 'rgba(0,0,0,0.75)', background: '#f2f2f2', border: '#d9d9d9' },
} as const;

export function StatusTag({ tone, children, testId }: { tone: keyof typeof TONES; children: ReactNode; testId?: string }) {
  const t = TONES[tone];
  return (
    <span
      data-testid={testId}
      style={{
        display: 'inline-block',
        padding: '0 8px',
        borderRadius: 4,
        border: `1px solid ${t.border}`,
        background: t.background,
        color: t.color,
        fontSize: 12,
        lineHeight: '20px',
        whiteSpace: 'nowrap',
      }}
    >
      {children}
    </span>
  );
}

/** The percentage text beside a progress bar, in body text colour (the bar's own green text fails contrast). */
export function percentText(value: number, digits = 1): ReactNode {
  // French writes 12,5 % (a space before the sign); English keeps 12.5%.
  const text = currentLocale() === 'fr' ? `${formatNumber(value, digits)}\u00a0%` : `${value.toFixed(digits)}%`;
  return <span style={{ color: 'rgba(0,0,0,0.88)' }}>{text}</span>;
}
