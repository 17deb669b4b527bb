// The Activity Log screen (provider and tenant): search, a filter modal by action (Create, Update) and date range, and
// a table of user, role, description, platform, country and timestamp; rows open a details drawer; Export table
// downloads activity-logs.csv with the visible columns and the same filters.
import { useMemo, useState } from 'react';
import type { ActivityAction, ActivityEntry } from '@farmland/contracts';
import { FilterModal, type FilterField } from '../../../components/ui/filter-modal';
import { ListPage, type ListColumn } from '../../../components/ui/list-page';
import { useListState } from '../../../components/ui/use-list-state';
import { formatDate, formatTime } from '../../../lib/formatters';
import { ACTIVITY_PAGE_SIZE, useActivityLogs, type ActivityLogParams } from '../api/get-activity-logs';
import { ActivityEntryDrawer } from './activity-entry-drawer';
import { actionLabel, platformLabel, roleLabel } from './labels';
import { t } from '../../../i18n';
import { activityText as m } from '../activity.messages';

/** Spec §9: the log's action filter offers Create and Update. */
export const ACTION_FILTERS: readonly ActivityAction[] = ['Create', 'Update'];

/** Built when the screen renders, in the page's language. */
const filterFields = (): FilterField[] => [
  { kind: 'select', name: 'action', label: t(m.action), options: ACTION_FILTERS.map((value) => ({ label: actionLabel(value), value })) },
  { kind: 'date-range', name: 'date', label: t(m.dateRange) },
];

function timestampCell(iso: string) {
  return (
    <time dateTime={iso} className="nowrap">
      {formatDate(iso)} <span className="text-muted">{formatTime(iso)}</span>
    </time>
  );
}

export function ActivityLogList({ showTenant }: { showTenant: boolean }) {
  const state = useListState({ defaultPageSize: ACTIVITY_PAGE_SIZE, filters: ['action', 'date'], rangeFilters: ['date'], drawer: 'entry' });
  const { search, page, pageSize, filters } = state;
  const [filterOpen, setFilterOpen] = useState(false);

  const filterQuery = useMemo(() => {
    const action = typeof filters['action'] === 'string' ? (filters['action'] as ActivityAction) : undefined;
    const range = Array.isArray(filters['date']) ? filters['date'] : undefined;
    const q: Omit<ActivityLogParams, 'page' | 'page_size'> = {};
    if (search) q.search = search;
    if (action) q.action = action;
    if (range) {
      q.date_after = range[0];
      q.date_before = range[1];
    }
    return q;
  }, [filters, search]);

  const query = useActivityLogs({ page, page_size: pageSize, ...filterQuery });
  // ?entry=<id> opens that entry's drawer, while it is on the page shown.
  const openEntry = (state.drawer && query.data?.data.results.find((r) => r.id === state.drawer)) || null;

  const columns = useMemo<ListColumn<ActivityEntry>[]>(
    () => [
      // An entry of the system's own work (no user, named 'System' by the API) is named in the page's language; a
      // person's name is data.
      { key: 'user', title: t(m.user), render: (r) => (r.user_id === null && r.user === 'System' ? t(m.system) : <span translate="no">{r.user}</span>) },
      { key: 'role', title: t(m.role), render: (r) => roleLabel(r.role) },
      { key: 'action', title: t(m.action), render: (r) => actionLabel(r.action), defaultHidden: true },
      { key: 'description', title: t(m.description), render: (r) => r.description, width: 420 },
      { key: 'platform', title: t(m.platform), render: (r) => platformLabel(r.platform) },
      { key: 'country', title: t(m.country), render: (r) => r.country ?? '--' },
      ...(showTenant ? [{ key: 'tenant', title: t(m.tenant), render: (r: ActivityEntry) => r.tenant ?? '--', defaultHidden: true }] : []),
      { key: 'timestamp', title: t(m.timestamp), render: (r) => timestampCell(r.timestamp) },
    ],
    [showTenant],
  );

  return (
    <>
      <ListPage<ActivityEntry>
        title={t(m.title)}
        count={query.data?.data}
        rows={query.data?.data.results ?? []}
        rowKey={(r) => r.id}
        columns={columns}
        loading={query.isFetching}
        error={query.isError && !query.data}
        onRetry={() => void query.refetch()}
        {...state.listProps}
        searchPlaceholder={t(m.searchPlaceholder)}
        onOpenFilter={() => setFilterOpen(true)}
        exportName="activity-logs"
        exportFilters={state.query}
        selectable
        onRowClick={(r) => state.openDrawer(r.id)}
        emptyText={t(m.empty)}
        storageKey={showTenant ? 'activity-logs-provider' : 'activity-logs-tenant'}
      />
      <FilterModal open={filterOpen} fields={filterFields()} value={filters} onApply={state.setFilters} onClose={() => setFilterOpen(false)} />
      <ActivityEntryDrawer entry={openEntry} onClose={state.closeDrawer} />
    </>
  );
}
