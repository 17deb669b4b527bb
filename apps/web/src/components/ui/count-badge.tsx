// The count next to a list's title, grouped with commas ("1,234").
import { formatNumber } from '../../lib/formatters';

export function CountBadge({ count, label = 'items' }: { count: number | undefined; label?: string }) {
  return (
    <span
      aria-label={count === undefined ? undefined : `${formatNumber(count)} ${label}`}
      data-testid="count-badge"
      style={{ display: 'inline-block', minWidth: 28, padding: '0 10px', borderRadius: 12, background: '#e7f3ea', color: '#14532b', fontSize: 13, fontWeight: 600, lineHeight: '24px', textAlign: 'center' }}
    >
      {count === undefined ? '…' : formatNumber(count)}
    </span>
  );
}
