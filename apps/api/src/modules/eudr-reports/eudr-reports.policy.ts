// EUDR readiness reports (issue 29): a tenant's administrators read their own tenant's (agents and SDK license keys
// are refused: the reports show every agent's plots and the tenant's risk picture); provider staff read each tenant's
// readiness, not a tenant's plot lists (those stay with the tenant, like a farm's screening).
import { definePolicy } from '../../lib/policy.js';

export const eudrReportsPolicy = definePolicy('eudr-reports', {
  tenant: { who: ['tenant_admin'], denied: "A tenant's EUDR reports are for its administrators." },
  provider: { who: ['super_admin'], denied: 'Only provider staff can read the readiness of every tenant.' },
});
