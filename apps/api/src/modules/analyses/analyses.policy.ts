// Who may work with custom analyses: a tenant's administrators, on their own tenant's analyses only. Another tenant's
// analysis is reported as missing (404), exactly like one that does not exist.
import { definePolicy } from '../../lib/policy.js';

export const analysesPolicy = definePolicy('analyses', {
  manage: { who: ['tenant_admin'], hidden: 'Analysis' },
});
