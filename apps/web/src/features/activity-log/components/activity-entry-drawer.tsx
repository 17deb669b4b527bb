// The details of one activity-log entry, in the side drawer.
import Descriptions from 'antd/es/descriptions';
import type { ActivityEntry } from '@farmland/contracts';
import { SideDrawer } from '../../../components/ui/side-drawer';
import { formatDate, formatTime } from '../../../lib/formatters';
import { actionLabel, platformLabel, roleLabel } from './labels';
import { t } from '../../../i18n';
import { activityText as m } from '../activity.messages';

export function ActivityEntryDrawer({ entry, onClose }: { entry: ActivityEntry | null; onClose: () => void }) {
  return (
    <SideDrawer open={entry !== null} title={t(m.details)} onClose={onClose}>
      {entry && (
        <Descriptions
          column={1}
          size="small"
          bordered
          items={[
            {
              key: 'user',
              label: t(m.user),
              children: entry.user_id === null && entry.user === 'System' ? t(m.system) : <span translate="no">{entry.user}</span>,
            },
            { key: 'role', label: t(m.role), children: roleLabel(entry.role) },
            { key: 'action', label: t(m.action), children: actionLabel(entry.action) },
            { key: 'description', label: t(m.description), children: <span translate="no">{entry.description}</span> },
            { key: 'platform', label: t(m.platform), children: platformLabel(entry.platform) },
            { key: 'country', label: t(m.country), children: <span translate="no">{entry.country ?? '--'}</span> },
            ...(entry.tenant ? [{ key: 'tenant', label: t(m.tenant), children: <span translate="no">{entry.tenant}</span> }] : []),
            { key: 'date', label: t(m.date), children: formatDate(entry.timestamp) },
            { key: 'time', label: t(m.time), children: formatTime(entry.timestamp) },
          ]}
        />
      )}
    </SideDrawer>
  );
}
