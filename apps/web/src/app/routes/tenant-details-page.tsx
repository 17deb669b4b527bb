// /super-admin/tenant/{uuid}: one tenant with its admin, license and captures.
import { TenantDetails } from '../../features/tenants/components/tenant-details';

export function TenantDetailsPage() {
  return <TenantDetails />;
}
