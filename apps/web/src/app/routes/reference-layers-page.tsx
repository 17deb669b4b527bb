// /admin/reference-layers (a tenant's own layers, the provider's read-only, and its plot-risk thresholds) and
// /super-admin/reference-layers (the provider-wide layers).
import { ReferenceLayersScreen } from '../../features/reference-layers/components/reference-layers-screen';

export function TenantReferenceLayersPage() {
  return <ReferenceLayersScreen scope="tenant" />;
}

export function ProviderReferenceLayersPage() {
  return <ReferenceLayersScreen scope="provider" />;
}
