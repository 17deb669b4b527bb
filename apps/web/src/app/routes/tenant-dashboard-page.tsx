// /admin/dashboard: the tenant dashboard.
import { TenantDashboard } from '../../features/dashboard/components/tenant-dashboard';

export function TenantDashboardPage() {
  return <TenantDashboard />;
}
