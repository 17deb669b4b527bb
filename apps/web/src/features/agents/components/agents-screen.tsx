// /admin/agents, "Agents' List": 'All Agents' with the count, Export and 'New Agent' (Create Single or Bulk Upload); a
// search debounced by 400 ms, a filter by region and operational area, the column-visibility menu, the spec's columns,
// pages of 10. A row opens the agent drawer; the row menu has Edit Agent, Reset Agent Account, Suspend or Unsuspend Agent
// and Delete Agent, each confirmed first. ?new=1 and ?edit=<id> (the dashboard's agents card) open the wizard.
import { useCallback, useMemo, useState } from 'react';
import { useUrlParams } from '../../../lib/use-url-params';
import { useQueryClient } from '@tanstack/react-query';
import Avatar from 'antd/es/avatar';
import Button from 'antd/es/button';
import Dropdown from 'antd/es/dropdown';
import { DownOutlined, MoreOutlined, PlusOutlined, UserOutlined } from '@ant-design/icons';
import { createAgentBody, type Agent } from '@farmland/contracts';
import { BulkUploadModal } from '../../../components/ui/bulk-upload-modal';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { FilterModal, type FilterField } from '../../../components/ui/filter-modal';
import { ListPage, type ListColumn } from '../../../components/ui/list-page';
import { AgentProgressBar } from '../../../components/ui/agent-progress';
import { StatusTag } from '../../../components/ui/status-tag';
import { useListState } from '../../../components/ui/use-list-state';
import { formatNumber } from '../../../lib/formatters';
import { useOperationalAreaOptions, useRegions } from '../../../lib/lookups';
import { notifySuccess } from '../../../lib/notifier';
import { useDeleteAgent } from '../../../lib/delete-agent';
import { AGENTS_PAGE_SIZE, useAgents } from '../api/get-agents';
import { useResetAgentAccount } from '../api/reset-agent-account';
import { useToggleSuspension } from '../api/suspend-agent';
import { AgentDrawer } from './agent-drawer';
import { AgentWizard } from './agent-wizard';
import { queryKeys } from '../../../lib/query-keys';
import { t } from '../../../i18n';
import { agentsText as m } from '../agents.messages';

export const AGENT_BULK_COLUMNS = ['first_name', 'last_name', 'email', 'phone_number', 'gender', 'operational_area_id'] as const;
const AGENT_FILTERS = ['region', 'operational_area'] as const;
type Pending = { kind: 'delete' | 'suspend' | 'reset'; agent: Agent };

const formatTotal = (sqm: number) => t(m.sqm, { area: formatNumber(sqm, 4) });

/** The bulk table's quick check of an edited cell, from the contract's field schemas. */
export function validateAgentCell(column: string, value: string): string | undefined {
  const shape = createAgentBody.shape as Record<
    string,
    { safeParse: (v: unknown) => { success: boolean; error?: { issues: { message: string }[] } } } | undefined
  >;
  const schema = shape[column];
  if (!schema) return undefined;
  const v = value.trim() === '' ? undefined : column === 'gender' ? value.trim().charAt(0).toUpperCase() + value.trim().slice(1).toLowerCase() : value;
  const parsed = schema.safeParse(v);
  return parsed.success ? undefined : parsed.error?.issues[0]?.message;
}

function confirmText(p: Pending): { title: string; body: string; label: string; danger: boolean } {
  if (p.kind === 'delete') return { title: t(m.deleteAgent), body: t(m.deleteQuestion), label: t(m.delete), danger: true };
  if (p.kind === 'reset')
    return {
      title: t(m.resetAgentAccount),
      body: t(m.resetQuestion, { name: p.agent.agent_name, email: p.agent.email }),
      label: t(m.reset),
      danger: true,
    };
  return p.agent.is_suspended
    ? { title: t(m.unsuspendAgent), body: t(m.unsuspendQuestion, { name: p.agent.agent_name }), label: t(m.unsuspend), danger: false }
    : { title: t(m.suspendAgent), body: t(m.suspendQuestion, { name: p.agent.agent_name }), label: t(m.suspend), danger: true };
}

export function AgentsScreen() {
  const [params, setParams] = useUrlParams();
  const client = useQueryClient();
  // ?agent=<id> opens that agent's drawer (the header search links agents so).
  const state = useListState({ defaultPageSize: AGENTS_PAGE_SIZE, filters: AGENT_FILTERS, drawer: 'agent' });
  const { search, page, pageSize, filters } = state;
  const [filterOpen, setFilterOpen] = useState(false);
  const openAgent = state.drawer;
  const [pending, setPending] = useState<Pending | null>(null);
  const [bulkOpen, setBulkOpen] = useState(false);

  const region = typeof filters['region'] === 'string' ? filters['region'] : undefined;
  const area = typeof filters['operational_area'] === 'string' ? filters['operational_area'] : undefined;
  const list = useAgents({ page, page_size: pageSize, search: search || undefined, region, operational_area: area });
  const regions = useRegions();
  const areas = useOperationalAreaOptions();
  const remove = useDeleteAgent();
  const suspend = useToggleSuspension();
  const reset = useResetAgentAccount();

  // The wizard: ?new=1 creates, ?edit=<id> edits (so the dashboard's card can open it).
  const editId = params.get('edit');
  const wizardOpen = params.get('new') === '1' || Boolean(editId);
  const setWizard = useCallback(
    (value: { new: true } | { edit: string } | null) =>
      setParams(
        (cur) => {
          const next = new URLSearchParams(cur);
          next.delete('new');
          next.delete('edit');
          if (value && 'new' in value) next.set('new', '1');
          if (value && 'edit' in value) next.set('edit', value.edit);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  const filterFields = useMemo<FilterField[]>(
    () => [
      { kind: 'select', name: 'region', label: t(m.region), options: (regions.data?.data.results ?? []).map((r) => ({ label: r.name, value: r.id })) },
      { kind: 'select', name: 'operational_area', label: t(m.operationalArea), options: (areas.data ?? []).map((a) => ({ label: a.name, value: a.id })) },
    ],
    [regions.data, areas.data],
  );

  const confirm = async () => {
    if (!pending) return;
    const { kind, agent } = pending;
    try {
      if (kind === 'delete') {
        await remove.mutateAsync(agent.id);
        notifySuccess(t(m.deleted));
        if (openAgent === agent.id) state.closeDrawer();
      } else if (kind === 'suspend') {
        const res = await suspend.mutateAsync(agent.id);
        // The answer's agent says which way it went.
        notifySuccess(res.data.is_suspended ? t(m.suspendedDone) : t(m.unsuspended));
      } else {
        await reset.mutateAsync(agent.id);
        notifySuccess(t(m.accountReset));
      }
      setPending(null);
    } catch {
      // the notifier has shown why; the dialog stays open to try again or cancel
    }
  };

  const columns = useMemo<ListColumn<Agent>[]>(
    () => [
      {
        key: 'agent_name',
        title: t(m.agentName),
        // The spec's nine columns fit the screen without a sideways scroll, and nothing is cut: names, e-mails and areas
        // wrap (an e-mail at any character) instead of ending in an ellipsis (issue 33: truncated at 1440 px).
        width: 180,
        render: (r) => (
          <span className="inline gap-8 shrinkable">
            <Avatar size={28} src={r.image ?? undefined} icon={<UserOutlined />} alt="" className="no-shrink" />
            <span className="wrap-anywhere">{r.agent_name}</span>
          </span>
        ),
      },
      { key: 'phone_number', title: t(m.phone), width: 128, render: (r) => <span className="nowrap">{r.phone_number ?? '--'}</span> },
      { key: 'email', title: t(m.email), render: (r) => <span className="wrap-anywhere">{r.email}</span> },
      { key: 'farmers', title: t(m.farmers), width: 76, render: (r) => formatNumber(r.farmers_count) },
      { key: 'mapped_farmlands', title: t(m.mappedFarmlands), width: 88, render: (r) => formatNumber(r.mapped_farms_count) },
      {
        key: 'progress',
        title: t(m.progress),
        width: 108,
        render: (r) => <AgentProgressBar size="small" progress={r.progress} mapped={r.mapped_farms_count} farmers={r.farmers_count} />,
      },
      { key: 'operational_area', title: t(m.operationalArea), width: 130, render: (r) => <span className="wrap-anywhere">{r.operational_area ?? '--'}</span> },
      {
        key: 'status',
        title: t(m.status),
        width: 96,
        render: (r) => <StatusTag tone={r.is_suspended ? 'bad' : 'good'}>{r.is_suspended ? t(m.suspended) : t(m.active)}</StatusTag>,
      },
      // The area wraps before "sqm" rather than widening the column.
      { key: 'total_area_mapped', title: t(m.totalAreaMapped), width: 112, render: (r) => formatTotal(r.total_mapped_area) },
      {
        key: 'actions',
        title: '',
        alwaysVisible: true,
        width: 44,
        render: (r) => (
          <Dropdown
            trigger={['click']}
            menu={{
              items: [
                { key: 'edit', label: t(m.editAgent) },
                { key: 'reset', label: t(m.resetAgentAccount) },
                { key: 'suspend', label: r.is_suspended ? t(m.unsuspendAgent) : t(m.suspendAgent) },
                { key: 'delete', label: t(m.deleteAgent), danger: true },
              ],
              onClick: ({ key, domEvent }) => {
                domEvent.stopPropagation();
                if (key === 'edit') setWizard({ edit: r.id });
                else setPending({ kind: key as Pending['kind'], agent: r });
              },
            }}
          >
            <Button
              type="text"
              size="small"
              icon={<MoreOutlined aria-hidden="true" />}
              aria-label={t(m.actionsFor, { name: r.agent_name })}
              onClick={(e) => e.stopPropagation()}
            />
          </Dropdown>
        ),
      },
    ],
    [setWizard],
  );

  const text = pending ? confirmText(pending) : null;
  const busy = remove.isPending || suspend.isPending || reset.isPending;

  return (
    <>
      <ListPage<Agent>
        title={t(m.title)}
        count={list.data?.data}
        rows={list.data?.data.results ?? []}
        rowKey={(r) => r.id}
        columns={columns}
        loading={list.isFetching}
        error={list.isError && !list.data}
        onRetry={() => void list.refetch()}
        {...state.listProps}
        searchPlaceholder={t(m.searchPlaceholder)}
        onOpenFilter={() => setFilterOpen(true)}
        exportName="agents"
        exportLabel={t(m.export)}
        exportFilters={state.query}
        onRowClick={(r) => state.openDrawer(r.id)}
        emptyText={state.narrowed ? t(m.emptyFiltered) : t(m.emptyNone)}
        storageKey="agents"
        actions={
          <Dropdown
            trigger={['click']}
            menu={{
              items: [
                { key: 'single', label: t(m.createSingle) },
                { key: 'bulk', label: t(m.bulkUpload) },
              ],
              onClick: ({ key }) => (key === 'single' ? setWizard({ new: true }) : setBulkOpen(true)),
            }}
          >
            <Button type="primary" icon={<PlusOutlined aria-hidden="true" />}>
              {t(m.newAgent)} <DownOutlined aria-hidden="true" />
            </Button>
          </Dropdown>
        }
      />
      <FilterModal open={filterOpen} fields={filterFields} value={filters} onApply={state.setFilters} onClose={() => setFilterOpen(false)} />
      <AgentDrawer agentId={openAgent} onClose={state.closeDrawer} />
      <AgentWizard open={wizardOpen} agentId={editId} onClose={() => setWizard(null)} />
      <BulkUploadModal
        open={bulkOpen}
        title={t(m.bulkUploadTitle)}
        endpoint="/accounts/agents/bulk-upload/"
        template={{ path: '/accounts/agents/template.csv', filename: 'agents-template.csv' }}
        columns={AGENT_BULK_COLUMNS}
        validateCell={validateAgentCell}
        onCreated={() => {
          void client.invalidateQueries({ queryKey: queryKeys.agents.all });
          void client.invalidateQueries({ queryKey: queryKeys.analytics.all });
        }}
        onClose={() => setBulkOpen(false)}
        testId="agents-bulk-upload"
      />
      <ConfirmDialog
        open={Boolean(pending)}
        title={text?.title ?? ''}
        confirmLabel={text?.label ?? t(m.confirm)}
        danger={text?.danger ?? false}
        loading={busy}
        onConfirm={() => void confirm()}
        onCancel={() => setPending(null)}
      >
        {text?.body}
      </ConfirmDialog>
    </>
  );
}
