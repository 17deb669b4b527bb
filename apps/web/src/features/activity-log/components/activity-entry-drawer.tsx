// i18n: pending (texts not yet in the catalogue: docs/decisions/console-languages.md)
// The details of one activity-log entry, in the side drawer.
import Descriptions from 'antd/es/descriptions';
import type { ActivityEntry } from '@farmland/contracts';
import { SideDrawer } from '../../../components/ui/side-drawer';
import { formatDate, formatTime } from '../../../lib/formatters';
import { platformLabel, roleLabel } from './labels';

export function ActivityEntryDrawer({ entry, onClose }: { entry: ActivityEntry | null; onClose: () => void }) {
  return (
    <SideDrawer open={entry !== null} title="Activity details" onClose={onClose}>
      {entry && (
        <Descriptions
          column={1}
          size="small"
          bordered
          items={[
            { key: 'user', label: 'User', children: entry.user },
            { key: 'role', label: 'Role', children: roleLabel(entry.role) },
            { key: 'action', label: 'Action', children: entry.action },
            { key: 'description', label: 'Description', children: entry.description },
            { key: 'platform', label: 'Platform', children: platformLabel(entry.platform) },
            { key: 'country', label: 'Country', children: entry.country ?? '--' },
            ...(entry.tenant ? [{ key: 'tenant', label: 'Tenant', children: entry.tenant }] : []),
            { key: 'date', label: 'Date', children: formatDate(entry.timestamp) },
            { key: 'time', label: 'Time', children: formatTime(entry.timestamp) },
          ]}
        />
      )}
    </SideDrawer>
  );
}
