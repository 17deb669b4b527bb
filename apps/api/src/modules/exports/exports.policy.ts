// Who may export which list: the route is for administrators (provider staff and tenant admins); each list then has
// its own rule, named like the list (the {name} of POST /base/export/{name}/). A list's rows are scoped like the list's
// own page (exports/lists/*.export.ts).
import { definePolicy } from '../../lib/policy.js';

const admins = ['super_admin', 'tenant_admin'] as const;

export const exportsPolicy = definePolicy('exports', {
  export: { who: admins },
  'activity-logs': { who: admins },
  mappings: { who: admins },
  farmers: { who: admins },
  agents: { who: admins },
  tenants: { who: ['super_admin'] },
  licenses: { who: ['super_admin'] },
});

/** A list's rule in the table above. */
export type ExportAction = Exclude<keyof typeof exportsPolicy.rules, 'export'>;
