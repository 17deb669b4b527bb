// i18n: pending (texts not yet in the catalogue: docs/decisions/console-languages.md)
// /super-admin/dashboard: the provider's analytics, under the page's level-one heading (read by screen readers).
import { ProviderDashboard } from '../../features/provider-dashboard/components/provider-dashboard';

export function ProviderDashboardPage() {
  return (
    <>
      <h1 className="visually-hidden">Dashboard</h1>
      <ProviderDashboard />
    </>
  );
}
