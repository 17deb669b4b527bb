// Who may do what to farmers: everyone of the tenant reads them, provider staff every tenant's; a tenant admin or an
// agent with a session, or the tenant's SDK license key, writes them; deleting and bulk uploading is a tenant admin's.
// Always in their own tenant.
import { definePolicy } from '../../lib/policy.js';

export const farmersPolicy = definePolicy('farmers', {
  read: { who: ['super_admin', 'tenant_admin', 'agent'], hidden: 'Tenant' },
  write: { who: ['tenant_admin', 'agent', 'sdk_license'], denied: 'Only field agents or an SDK license key can capture farms.' },
  manage: { who: ['tenant_admin'], denied: 'Only a tenant administrator can do this.' },
});
