// The field app's reads: an agent (or a tenant admin) of a tenant, for that tenant only; provider staff have no field app.
import { definePolicy } from '../../lib/policy.js';

export const fieldPolicy = definePolicy('field', {
  download: { who: ['agent', 'tenant_admin'], denied: 'The field download is for field agents and tenant administrators.' },
});
