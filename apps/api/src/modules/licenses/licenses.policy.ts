// Who may see and change licenses: provider staff every tenant's. A tenant admin reads its own organisation's licenses
// (the dashboard's license card, spec tenant-admin.md §7) and changes none; agents see none.
import { definePolicy } from '../../lib/policy.js';

const denied = 'Only provider staff can manage tenants and licenses.';

export const licensesPolicy = definePolicy('licenses', {
  list: { who: ['super_admin', 'tenant_admin'], denied },
  /** Revoke, re-issue, rotate the key. */
  manage: { who: ['super_admin'], denied },
});
