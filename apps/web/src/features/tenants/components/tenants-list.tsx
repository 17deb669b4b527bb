// /super-admin/tenant, "All Tenants" (docs/requirements.md §2): count badge, search, Filter (license type; status Active, Suspended,
// Inactive), Export table, New Tenant, row selection with a bulk delete, and per row Edit, Suspend/Unsuspend, Manage
// License, Deactivate/Activate, Revoke License and Re-issue License, each behind its confirmation. A row opens the
// tenant's details.
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import Button from 'antd/es/button';
import Dropdown from 'antd/es/dropdown';
import Tag from 'antd/es/tag';
import { MoreOutlined, PlusOutlined } from '@ant-design/icons';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { FilterModal, type FilterField } from '../../../components/ui/filter-modal';
import { ListPage, type ListColumn } from '../../../components/ui/list-page';
import { useListState } from '../../../components/ui/use-list-state';
import { formatDate, formatNumber } from '../../../lib/formatters';
import { notifySuccess } from '../../../lib/notifier';
import { useDeleteTenants } from '../api/delete-tenants';
import { TENANTS_PAGE_SIZE, useTenants } from '../api/get-tenants';
import type { LicenseType, Tenant, TenantListItem, TenantStatus } from '../api/tenant-types';
import { ManageLicenseDrawer } from './manage-license-drawer';
import { actionLabel, availableActions, TenantConfirm, type PendingAction } from './tenant-confirm';
import { TenantWizard } from './tenant-wizard';
import { paths } from '../../../lib/paths';
import { t } from '../../../i18n';
import { tenantsText as m } from '../tenants.messages';
import { licenseTypeLabel, tenantStatusLabel } from './tenant-labels';

const filterFields = (): readonly FilterField[] => [
  {
    kind: 'select',
    name: 'license_type',
    label: t(m.licenseType),
    options: [
      { label: t(m.platform), value: 'Platform' },
      { label: t(m.sdk), value: 'SDK' },
    ],
  },
  {
    kind: 'select',
    name: 'status',
    label: t(m.status),
    options: [
      { label: t(m.statusActive), value: 'Active' },
      { label: t(m.statusSuspended), value: 'Suspended' },
      { label: t(m.statusInactive), value: 'Inactive' },
    ],
  },
];

const STATUS_COLOR: Record<TenantStatus, string> = { Active: 'success', Suspended: 'warning', Inactive: 'default' };

export function TenantsList() {
  const navigate = useNavigate();
  const state = useListState({ defaultPageSize: TENANTS_PAGE_SIZE, filters: ['license_type', 'status'] });
  const { search, page, pageSize, filters } = state;
  const [filterOpen, setFilterOpen] = useState(false);
  const [wizard, setWizard] = useState<{ open: boolean; id: string | null }>({ open: false, id: null });
  const [pending, setPending] = useState<PendingAction>(null);
  const [licenseOf, setLicenseOf] = useState<Tenant | null>(null);
  const [toDelete, setToDelete] = useState<string[] | null>(null);
  const remove = useDeleteTenants();

  const filterQuery = useMemo(() => {
    const type = typeof filters['license_type'] === 'string' ? (filters['license_type'] as LicenseType) : undefined;
    const status = typeof filters['status'] === 'string' ? (filters['status'] as TenantStatus) : undefined;
    return { ...(search ? { search } : {}), ...(type ? { license_type: type } : {}), ...(status ? { status } : {}) };
  }, [filters, search]);
  const query = useTenants({ page, page_size: pageSize, ...filterQuery });

  const columns = useMemo<ListColumn<TenantListItem>[]>(
    () => [
      { key: 'name', title: t(m.organization), render: (r) => r.name },
      { key: 'email', title: t(m.email), render: (r) => r.email ?? '--' },
      { key: 'type', title: t(m.licenseType), render: (r) => licenseTypeLabel(r.type ?? r.license?.type) },
      { key: 'number_of_agents', title: t(m.agents), render: (r) => formatNumber(r.number_of_agents) },
      { key: 'issued_date', title: t(m.issued), render: (r) => formatDate(r.issued_date ?? r.license?.issued_date) },
      { key: 'expiry_date', title: t(m.expires), render: (r) => formatDate(r.expiry_date ?? r.license?.expiry_date) },
      { key: 'registration_date', title: t(m.registered), render: (r) => formatDate(r.registration_date), defaultHidden: true },
      { key: 'country', title: t(m.country), render: (r) => r.country ?? '--', defaultHidden: true },
      { key: 'status', title: t(m.status), render: (r) => <Tag color={STATUS_COLOR[r.status]}>{tenantStatusLabel(r.status)}</Tag> },
      {
        key: 'actions',
        title: '',
        exportKey: null,
        width: 56,
        render: (r) => (
          <Dropdown
            trigger={['click']}
            menu={{
              items: [
                { key: 'edit', label: t(m.edit) },
                { key: 'license', label: t(m.manageLicense) },
                { type: 'divider' as const },
                ...availableActions(r).map((a) => ({ key: a, label: actionLabel(a), danger: a === 'suspend' || a === 'deactivate' || a === 'revoke' })),
              ],
              onClick: ({ key, domEvent }) => {
                domEvent.stopPropagation();
                if (key === 'edit') setWizard({ open: true, id: r.id });
                else if (key === 'license') setLicenseOf(r);
                else setPending({ action: key as NonNullable<PendingAction>['action'], tenant: r });
              },
            }}
          >
            <Button type="text" aria-label={t(m.actionsFor, { name: r.name })} icon={<MoreOutlined />} onClick={(e) => e.stopPropagation()} />
          </Dropdown>
        ),
      },
    ],
    [],
  );

  return (
    <>
      <ListPage<TenantListItem>
        title={t(m.title)}
        count={query.data?.data}
        rows={query.data?.data.results ?? []}
        rowKey={(r) => r.id}
        columns={columns}
        loading={query.isFetching && !query.data}
        error={query.isError && !query.data}
        onRetry={() => void query.refetch()}
        {...state.listProps}
        searchPlaceholder={t(m.searchPlaceholder)}
        onOpenFilter={() => setFilterOpen(true)}
        exportName="tenants"
        exportFilters={state.query}
        selectable
        onDeleteSelected={setToDelete}
        onRowClick={(r) => void navigate(paths.provider.tenant(r.uuid))}
        emptyText={state.narrowed ? t(m.emptyFiltered) : t(m.emptyNone)}
        storageKey="tenants"
        actions={
          <Button type="primary" icon={<PlusOutlined aria-hidden="true" />} onClick={() => setWizard({ open: true, id: null })}>
            {t(m.newTenant)}
          </Button>
        }
      />
      <FilterModal open={filterOpen} fields={filterFields()} value={filters} onApply={state.setFilters} onClose={() => setFilterOpen(false)} />
      <TenantWizard open={wizard.open} tenantId={wizard.id} onClose={() => setWizard({ open: false, id: null })} />
      <ManageLicenseDrawer
        tenant={licenseOf}
        onClose={() => setLicenseOf(null)}
        onAction={(action, tenant) => {
          setLicenseOf(null);
          setPending({ action, tenant });
        }}
      />
      <TenantConfirm pending={pending} onDone={() => setPending(null)} />
      <ConfirmDialog
        open={toDelete !== null}
        title={t(m.deleteTenants)}
        confirmLabel={t(m.delete)}
        danger
        loading={remove.isPending}
        onCancel={() => setToDelete(null)}
        onConfirm={() =>
          toDelete &&
          remove.mutate(toDelete, {
            onSuccess: (_res, uuids) => notifySuccess(t(m.deleted, { count: uuids.length, n: String(uuids.length) })),
            onSettled: () => setToDelete(null),
          })
        }
      >
        {t(m.deleteQuestion, { count: toDelete?.length ?? 0 })}
      </ConfirmDialog>
    </>
  );
}
