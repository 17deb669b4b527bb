// The loading state of a page or a frame while its chunk or its data arrives.
import Spin from 'antd/es/spin';
import { t } from '../../i18n';
import { uiText as m } from './ui.messages';

export function PageLoader({ label }: { label?: string }) {
  return (
    <div className="centred page-loader" role="status" aria-live="polite">
      <Spin size="large" />
      <span className="visually-hidden">{label ?? t(m.loading)}</span>
    </div>
  );
}
