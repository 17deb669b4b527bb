// The count next to a list's title, grouped with commas ("1,234"); "about 1,000,000" when the API estimated it
// (count_estimated: a list of more than 10,000 matches without a counter).
import { countText } from './list-total';
import { t } from '../../i18n';
import { uiText as m } from './ui.messages';

export function CountBadge({ count, estimated = false, label }: { count: number | undefined; estimated?: boolean; label?: string }) {
  return (
    <span
      aria-label={count === undefined ? undefined : `${countText(count, estimated)} ${label ?? t(m.items)}`}
      data-testid="count-badge"
      className="count-badge"
    >
      {count === undefined ? '…' : countText(count, estimated)}
    </span>
  );
}
