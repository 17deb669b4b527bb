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
import { t } from '../../../i18n';
import { tenantsText as m } from '../tenants.messages';

type Props = { tenantId: string; tenantName: string; open: boolean; onClose: () => void };

export function TenantAgentsDrawer({ tenantId, tenantName, open, onClose }: Props) {
  // The drawer's list state sits in the address beside the tenant page's, under its own prefix (agents_search...).
  const state = useListState({ defaultPageSize: TENANT_AGENTS_PAGE_SIZE, prefix: 'agents_' });
  const { search, page, pageSize } = state;
  const list = useTenantAgents({ tenant_id: tenantId, page, page_size: pageSize, search: search || undefined }, open);
  const columns = useMemo<ListColumn<Agent>[]>(
    () => [
      { key: 'agent_name', title: t(m.agentName), render: (r) => <span className="wrap-anywhere">{r.agent_name}</span> },
      { key: 'phone_number', title: t(m.phone), render: (r) => <span className="nowrap">{r.phone_number ?? '--'}</span> },
      { key: 'email', title: t(m.email), render: (r) => <span className="wrap-anywhere">{r.email}</span> },
      { key: 'farmers', title: t(m.farmers), render: (r) => formatNumber(r.farmers_count) },
      { key: 'mapped_farmlands', title: t(m.mappedFarmlands), render: (r) => formatNumber(r.mapped_farms_count) },
      {
        key: 'progress',
        title: t(m.progress),
        width: 110,
        render: (r) => <AgentProgressBar size="small" progress={r.progress} mapped={r.mapped_farms_count} farmers={r.farmers_count} />,
      },
      { key: 'operational_area', title: t(m.operationalArea), render: (r) => <span className="wrap-anywhere">{r.operational_area ?? '--'}</span> },
      {
        key: 'status',
        title: t(m.status),
        render: (r) => <StatusTag tone={r.is_suspended ? 'bad' : 'good'}>{r.is_suspended ? t(m.agentSuspended) : t(m.agentActive)}</StatusTag>,
      },
      { key: 'total_area_mapped', title: t(m.totalAreaMapped), render: (r) => t(m.sqm, { area: formatNumber(r.total_mapped_area, 4) }) },
    ],
    [],
  );
  return (
    <SideDrawer open={open} title={t(m.agentsOf, { name: tenantName })} onClose={onClose} width={1000}>
      <div data-testid="tenant-agents">
        <ListPage<Agent>
          title={t(m.allAgents)}
          count={list.data?.data}
          rows={list.data?.data.results ?? []}
          rowKey={(r) => r.id}
          columns={columns}
          loading={list.isFetching && !list.data}
          error={list.isError && !list.data}
          onRetry={() => void list.refetch()}
          {...state.listProps}
          searchPlaceholder={t(m.agentsSearch)}
          exportName="agents"
          exportFilters={{ tenant_id: tenantId, ...(search ? { search } : {}) }}
          emptyText={search ? t(m.noAgentsMatch) : t(m.noAgents)}
          storageKey="tenant-agents"
        />
      </div>
    </SideDrawer>
  );
}
