// Webhooks (issue 32, part 3): a tenant's administrators manage its endpoints and read their delivery log. Agents and
// SDK license keys cannot (an endpoint's secret signs everything the tenant's data sends out), nor can provider staff
// (an endpoint is the tenant's own integration); another tenant's endpoint answers 404.
import { definePolicy } from '../../lib/policy.js';

export const webhooksPolicy = definePolicy('webhooks', {
  manage: { who: ['tenant_admin'], denied: "Only a tenant administrator can manage the organisation's webhooks.", hidden: 'Webhook endpoint' },
});
