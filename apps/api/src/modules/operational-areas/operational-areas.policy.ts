// Operational areas: tenant admins create, edit and delete their tenant's; agents read their tenant's; provider staff
// read all (optionally narrowed by tenant_id; a tenant user naming another tenant gets a 404).
import { definePolicy } from '../../lib/policy.js';

export const areasPolicy = definePolicy('operational-areas', {
  read: { who: ['super_admin', 'tenant_admin', 'agent'], hidden: 'Tenant' },
  write: { who: ['tenant_admin'], denied: 'Only a tenant administrator can change operational areas.' },
});
