// Who may read the activity log: provider staff (every tenant) and tenant admins (their own tenant). Agents may not.
import { definePolicy } from '../../lib/policy.js';

export const activityPolicy = definePolicy('activity', {
  list: { who: ['super_admin', 'tenant_admin'] },
});
