// Tenant configuration: its admins and agents read it (devices need the minimum farm size), only its admins change it;
// provider staff read any tenant's by tenant_id. The settings summary (with the license key) is for admins and provider
// staff. A tenant user naming another tenant gets a 404.
import { definePolicy } from '../../lib/policy.js';

export const tenantSettingsPolicy = definePolicy('tenant-settings', {
  read: { who: ['super_admin', 'tenant_admin', 'agent'], hidden: 'Tenant' },
  change: { who: ['tenant_admin'], denied: 'Only a tenant administrator can change the configuration.', hidden: 'Tenant' },
  settings: { who: ['super_admin', 'tenant_admin'], hidden: 'Tenant' },
});
