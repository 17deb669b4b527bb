// i18n: pending (texts not yet in the catalogue: docs/decisions/console-languages.md)
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
import { platformLabel, roleLabel } from './labels';

/** Spec §9: the log's action filter offers Create and Update. */
export const ACTION_FILTERS: readonly { label: string; value: ActivityAction }[] = [
  { label: 'Create', value: 'Create' },
  { label: 'Update', value: 'Update' },
];

const FILTER_FIELDS: readonly FilterField[] = [
  { kind: 'select', name: 'action', label: 'Action', options: ACTION_FILTERS },
  { kind: 'date-range', name: 'date', label: 'Date range' },
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
      { key: 'user', title: 'User', render: (r) => r.user },
      { key: 'role', title: 'Role', render: (r) => roleLabel(r.role) },
      { key: 'action', title: 'Action', render: (r) => r.action, defaultHidden: true },
      { key: 'description', title: 'Description', render: (r) => r.description, width: 420 },
      { key: 'platform', title: 'Platform', render: (r) => platformLabel(r.platform) },
      { key: 'country', title: 'Country', render: (r) => r.country ?? '--' },
      ...(showTenant ? [{ key: 'tenant', title: 'Tenant', render: (r: ActivityEntry) => r.tenant ?? '--', defaultHidden: true }] : []),
      { key: 'timestamp', title: 'Timestamp', render: (r) => timestampCell(r.timestamp) },
    ],
    [showTenant],
  );

  return (
    <>
      <ListPage<ActivityEntry>
        title="Activity Log"
        count={query.data?.data}
        rows={query.data?.data.results ?? []}
        rowKey={(r) => r.id}
        columns={columns}
        loading={query.isFetching}
        error={query.isError && !query.data}
        onRetry={() => void query.refetch()}
        {...state.listProps}
        searchPlaceholder="Search user, description, action or platform"
        onOpenFilter={() => setFilterOpen(true)}
        exportName="activity-logs"
        exportFilters={state.query}
        selectable
        onRowClick={(r) => state.openDrawer(r.id)}
        emptyText="No activity matches your search or filters"
        storageKey={showTenant ? 'activity-logs-provider' : 'activity-logs-tenant'}
      />
      <FilterModal
        open={filterOpen}
        fields={FILTER_FIELDS}
        value={filters}
        onApply={state.setFilters}
        onClose={() => setFilterOpen(false)}
      />
      <ActivityEntryDrawer entry={openEntry} onClose={state.closeDrawer} />
    </>
  );
}
