// /super-admin/activity-log and /admin/activity-log: the same screen; provider staff may also show the tenant column.
import { ActivityLogList } from '../../features/activity-log/components/activity-log-list';
import { primaryRole, useSession } from '../../lib/session-store';

export function ActivityLogPage() {
  const { user } = useSession();
  return <ActivityLogList showTenant={primaryRole(user) === 'super_admin'} />;
}
