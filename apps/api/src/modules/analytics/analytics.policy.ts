// Tenant analytics: a tenant's admins read their own tenant's (naming another tenant is a 404); provider staff read one
// tenant's with tenant_id, or every tenant's together without it. Agents do not see the dashboard. The provider's own
// analytics (tenants, licenses, the ranking of tenants, Reports) are for super-admins only.
import { definePolicy } from '../../lib/policy.js';

export const analyticsPolicy = definePolicy('analytics', {
  tenant: { who: ['super_admin', 'tenant_admin'], hidden: 'Tenant' },
  provider: { who: ['super_admin'], denied: 'Only provider staff can read the provider analytics.' },
});
