// The activity log as an export: the columns of the Activity Log screen (and action, tenant), the list's own filters,
// provider staff for every tenant and tenant admins for their own.
import { activityQuery } from '@farmland/contracts';
import { scopeOf } from '../../../context.js';
import { withScope } from '../../../db/client.js';
import { activityExportBatch, type ActivityExportRow, type KeysetCursor } from '../exports.queries.js';
import { defineExport } from '../exports.define.js';

const ROLE_LABELS: Record<string, string> = { super_admin: 'Super admin', tenant_admin: 'Tenant admin', agent: 'Agent' };

export const activityLogsExport = defineExport<
  ActivityExportRow,
  { search?: string | undefined; action?: string | undefined; date_after?: string | undefined; date_before?: string | undefined }
>({
  name: 'activity-logs',
  subject: 'the activity log',
  action: 'activity-logs',
  columns: {
    user: { label: 'User', value: (r) => r.userName },
    role: { label: 'Role', value: (r) => (r.role ? (ROLE_LABELS[r.role] ?? r.role) : 'System') },
    action: { label: 'Action', value: (r) => r.action },
    description: { label: 'Description', value: (r) => r.description },
    platform: { label: 'Platform', value: (r) => r.platform },
    country: { label: 'Country', value: (r) => r.country },
    tenant: { label: 'Tenant', value: (r) => r.tenantName },
    timestamp: { label: 'Timestamp', value: (r) => r.createdAt.toISOString() },
  },
  filters: activityQuery.pick({ search: true, action: true, date_after: true, date_before: true }).strict(),
  batches: async function* (deps, actor, f) {
    const tenantId = actor.role === 'super_admin' ? null : actor.tenantId;
    const filter = { search: f.search, action: f.action, dateAfter: f.date_after, dateBefore: f.date_before };
    // Entries written after the export started (its own Export entry included) are left out: one consistent cut.
    const upTo = new Date();
    let cursor: KeysetCursor | null = null;
    for (;;) {
      const batch = await withScope(deps.db, scopeOf(actor), (tx) => activityExportBatch(tx, tenantId, filter, upTo, cursor));
      if (batch.length === 0) return;
      yield batch;
      const last = batch[batch.length - 1]!;
      cursor = { createdAt: last.createdAt, id: last.id };
    }
  },
});
