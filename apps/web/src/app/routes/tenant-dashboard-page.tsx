// /admin/dashboard: the tenant dashboard, under the page's level-one heading (read by screen readers; the cards show it).
import { TenantDashboard } from '../../features/dashboard/components/tenant-dashboard';
import { t } from '../../i18n';
import { appText as m } from '../app.messages';

export function TenantDashboardPage() {
  return (
    <>
      <h1 className="visually-hidden">{t(m.dashboard)}</h1>
      <TenantDashboard />
    </>
  );
}
