// i18n: pending (texts not yet in the catalogue: docs/decisions/console-languages.md)
// The provider's agents drawer (docs/requirements.md §2, "Agents drawer ... shared with tenant admins"): one tenant's agents with the
// Agents' List columns, a debounced search, paging and Export table. Provider staff read here; creating, editing,
// suspending and deleting agents stay with the tenant's admin (the API's roles, docs/requirements.md §6).
import { useMemo } from 'react';
import type { Agent } from '@farmland/contracts';
import { AgentProgressBar } from '../../../components/ui/agent-progress';
import { ListPage, type ListColumn } from '../../../components/ui/list-page';
import { SideDrawer } from '../../../components/ui/side-drawer';
import { StatusTag } from '../../../components/ui/status-tag';
import { useListState } from '../../../components/ui/use-list-state';
import { formatNumber } from '../../../lib/formatters';
import { TENANT_AGENTS_PAGE_SIZE, useTenantAgents } from '../api/get-tenant-agents';

type Props = { tenantId: string; tenantName: string; open: boolean; onClose: () => void };

const wrap = { overflowWrap: 'anywhere' } as const;

export function TenantAgentsDrawer({ tenantId, tenantName, open, onClose }: Props) {
  // The drawer's list state sits in the address beside the tenant page's, under its own prefix (agents_search...).
  const state = useListState({ defaultPageSize: TENANT_AGENTS_PAGE_SIZE, prefix: 'agents_' });
  const { search, page, pageSize } = state;
  const list = useTenantAgents({ tenant_id: tenantId, page, page_size: pageSize, search: search || undefined }, open);
  const columns = useMemo<ListColumn<Agent>[]>(
    () => [
      { key: 'agent_name', title: 'Agent name', render: (r) => <span style={wrap}>{r.agent_name}</span> },
      { key: 'phone_number', title: 'Phone', render: (r) => <span className="nowrap">{r.phone_number ?? '--'}</span> },
      { key: 'email', title: 'Email', render: (r) => <span style={wrap}>{r.email}</span> },
      { key: 'farmers', title: 'Farmers', render: (r) => formatNumber(r.farmers_count) },
      { key: 'mapped_farmlands', title: 'Mapped farmlands', render: (r) => formatNumber(r.mapped_farms_count) },
      { key: 'progress', title: 'Progress', width: 110, render: (r) => <AgentProgressBar size="small" progress={r.progress} mapped={r.mapped_farms_count} farmers={r.farmers_count} /> },
      { key: 'operational_area', title: 'Operational area', render: (r) => <span style={wrap}>{r.operational_area ?? '--'}</span> },
      { key: 'status', title: 'Status', render: (r) => <StatusTag tone={r.is_suspended ? 'bad' : 'good'}>{r.is_suspended ? 'Suspended' : 'Active'}</StatusTag> },
      { key: 'total_area_mapped', title: 'Total area mapped', render: (r) => `${formatNumber(r.total_mapped_area, 4)} sqm` },
    ],
    [],
  );
  return (
    <SideDrawer open={open} title={`Agents of ${tenantName}`} onClose={onClose} width={1000}>
      <div data-testid="tenant-agents">
        <ListPage<Agent>
          title="All Agents"
          count={list.data?.data}
          rows={list.data?.data.results ?? []}
          rowKey={(r) => r.id}
          columns={columns}
          loading={list.isFetching && !list.data}
          error={list.isError && !list.data}
          onRetry={() => void list.refetch()}
          {...state.listProps}
          searchPlaceholder="Search by name, email or phone"
          exportName="agents"
          exportFilters={{ tenant_id: tenantId, ...(search ? { search } : {}) }}
          emptyText={search ? 'No agents match your search' : 'This tenant has no agents yet'}
          storageKey="tenant-agents"
        />
      </div>
    </SideDrawer>
  );
}
