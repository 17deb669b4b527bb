// /super-admin/tenant: All Tenants.
import { TenantsList } from '../../features/tenants/components/tenants-list';

export function TenantsPage() {
  return <TenantsList />;
}
