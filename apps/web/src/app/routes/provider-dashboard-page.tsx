// /super-admin/dashboard: the provider's analytics.
import { ProviderDashboard } from '../../features/provider-dashboard/components/provider-dashboard';

export function ProviderDashboardPage() {
  return <ProviderDashboard />;
}
