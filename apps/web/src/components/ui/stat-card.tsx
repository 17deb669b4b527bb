// A small card with a label and one number (grouped with commas), used by the dashboards and overview totals; "…"
// while the number loads.
import type { ReactNode } from 'react';
import Card from 'antd/es/card';
import { formatNumber } from '../../lib/formatters';

type Props = { title: string; value: number | undefined; testId: string; icon?: ReactNode; format?: (n: number) => string };

export function StatCard({ title, value, testId, icon, format = formatNumber }: Props) {
  return (
    <Card size="small" style={{ height: '100%' }}>
      <div style={{ color: 'rgba(0,0,0,0.62)', display: 'flex', alignItems: 'center', gap: 6 }}>
        {icon}
        {title}
      </div>
      <div style={{ fontSize: 24, fontWeight: 600 }} data-testid={testId}>
        {value === undefined ? '…' : format(value)}
      </div>
    </Card>
  );
}
