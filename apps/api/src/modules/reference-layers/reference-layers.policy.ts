// Reference layers (issue 29): provider staff manage the provider's layers, which every tenant reads; a tenant's
// administrators manage their tenant's own. A layer of the other owner is refused with 403 (it is visible, not theirs).
import { definePolicy } from '../../lib/policy.js';

export const referenceLayersPolicy = definePolicy('reference-layers', {
  /** The provider's layers (routes under /base/reference-layers/). */
  provider: { who: ['super_admin'], denied: 'Provider layers are managed by the service provider.' },
  /** A tenant's own layers (routes under /reference-layers/). */
  tenant: { who: ['tenant_admin'], denied: "A tenant's layers are managed by its administrators." },
  /** The service's check: whose layers the actor manages (the provider's, or its tenant's). */
  manage: { who: ['super_admin', 'tenant_admin'] },
  /** The tenant's plot-risk thresholds and a farm's screening. */
  risk: { who: ['tenant_admin'] },
});
