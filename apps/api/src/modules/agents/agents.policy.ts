// Who may do what to agents: tenant admins manage their own tenant's agents; provider staff may read every tenant's.
// A tenant named that is not the reader's own is reported as missing (404), never as forbidden.
import { definePolicy } from '../../lib/policy.js';

export const agentsPolicy = definePolicy('agents', {
  /** The list and one agent; provider staff every tenant's (optionally narrowed by tenant_id). */
  read: { who: ['super_admin', 'tenant_admin'], hidden: 'Tenant' },
  /** Create, edit, suspend, delete and bulk upload: a tenant admin, in their own tenant. */
  manage: { who: ['tenant_admin'], denied: 'Only a tenant administrator can manage agents.' },
});
