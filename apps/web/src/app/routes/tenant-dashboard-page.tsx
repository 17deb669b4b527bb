// i18n: pending (texts not yet in the catalogue: docs/decisions/console-languages.md)
// /admin/dashboard: the tenant dashboard, under the page's level-one heading (read by screen readers; the cards show it).
import { TenantDashboard } from '../../features/dashboard/components/tenant-dashboard';

export function TenantDashboardPage() {
  return (
    <>
      <h1 className="visually-hidden">Dashboard</h1>
      <TenantDashboard />
    </>
  );
}
