// Lookups (countries, states, cities) and regions are readable by any signed-in user. Regions belong to a tenant: its
// admins create them; provider staff read them all.
import { definePolicy } from '../../lib/policy.js';

export const basePolicy = definePolicy('base', {
  lookups: { who: ['super_admin', 'tenant_admin', 'agent'] },
  'read-regions': { who: ['super_admin', 'tenant_admin', 'agent'] },
  'create-region': { who: ['tenant_admin'], denied: 'Only a tenant administrator can create regions.' },
});
