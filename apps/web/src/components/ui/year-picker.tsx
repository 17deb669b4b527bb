// The year picker of the provider's charts (dashboard, reports): this year and the years before it, newest first.
import Select from 'antd/es/select';
import { t } from '../../i18n';
import { uiText as m } from './ui.messages';

export const currentYear = (): number => new Date().getFullYear();

export function YearPicker({ value, onChange, years = 6, label }: { value: number; onChange: (year: number) => void; years?: number; label?: string }) {
  const now = currentYear();
  return (
    <Select<number>
      aria-label={label ?? t(m.year)}
      value={value}
      onChange={onChange}
      className="year-picker"
      options={Array.from({ length: years }, (_, i) => now - i).map((y) => ({ value: y, label: String(y) }))}
    />
  );
}
