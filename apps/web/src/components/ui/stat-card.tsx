// A small card with a label and one number (grouped with commas), used by the dashboards and overview totals; "…"
// while the number loads. An optional note says what is counted when the label does not (e.g. "Mapped farms" counts
// farmers).
import type { ReactNode } from 'react';
import Card from 'antd/es/card';
import { formatNumber } from '../../lib/formatters';
import { Figure, Muted } from './layout';

type Props = { title: string; value: number | undefined; testId: string; icon?: ReactNode; format?: (n: number) => string; note?: string };

export function StatCard({ title, value, testId, icon, format = formatNumber, note }: Props) {
  return (
    <Card size="small" className="full-height">
      <Muted as="div" className="inline gap-6">
        {icon}
        {title}
      </Muted>
      <Figure data-testid={testId}>{value === undefined ? '…' : format(value)}</Figure>
      {note && (
        <Muted as="div" small>
          {note}
        </Muted>
      )}
    </Card>
  );
}
