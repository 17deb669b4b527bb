// /super-admin/dashboard: the provider's analytics, under the page's level-one heading (read by screen readers).
import { ProviderDashboard } from '../../features/provider-dashboard/components/provider-dashboard';
import { t } from '../../i18n';
import { appText as m } from '../app.messages';

export function ProviderDashboardPage() {
  return (
    <>
      <h1 className="visually-hidden">{t(m.dashboard)}</h1>
      <ProviderDashboard />
    </>
  );
}
