// The count next to a list's title, grouped with commas ("1,234"); "10,000+" when the list stopped counting there.
import { formatNumber } from '../../lib/formatters';

export function CountBadge({ count, capped = false, label = 'items' }: { count: number | undefined; capped?: boolean; label?: string }) {
  return (
    <span
      aria-label={count === undefined ? undefined : `${capped ? 'at least ' : ''}${formatNumber(count)} ${label}`}
      data-testid="count-badge"
      style={{ display: 'inline-block', minWidth: 28, padding: '0 10px', borderRadius: 12, background: '#e7f3ea', color: '#14532b', fontSize: 13, fontWeight: 600, lineHeight: '24px', textAlign: 'center' }}
    >
      {count === undefined ? '…' : `${formatNumber(count)}${capped ? '+' : ''}`}
    </span>
  );
}
