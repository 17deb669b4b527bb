// Who may manage tenants: provider staff (super-admins) only. Everyone else is refused with 403 before anything is read.
import { definePolicy } from '../../lib/policy.js';

export const tenantsPolicy = definePolicy('tenants', {
  manage: { who: ['super_admin'], denied: 'Only provider staff can manage tenants and licenses.' },
});
