// i18n: pending (texts not yet in the catalogue: docs/decisions/console-languages.md)
// /super-admin/license (docs/requirements.md §2): search, the filter (status, type, issued date), Export table, and a table with the key
// hint (its first 10 characters, labelled as a hint: the key is stored hashed); per row Revoke (not yet revoked),
// Re-issue (SDK only: one more year), Rotate key (a new key shown once with a working copy, 'License Key copied'; the
// old license is revoked and stays in the list) and View tenant, the first three behind a confirmation.
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import Button from 'antd/es/button';
import Dropdown from 'antd/es/dropdown';
import Tag from 'antd/es/tag';
import { MoreOutlined } from '@ant-design/icons';
import type { License, LicenseStatus, LicenseType } from '@farmland/contracts';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { KeyHint } from '../../../components/ui/copy-key';
import { FilterModal, type FilterField } from '../../../components/ui/filter-modal';
import { ListPage, type ListColumn } from '../../../components/ui/list-page';
import { useListState } from '../../../components/ui/use-list-state';
import { formatCurrency, formatDate } from '../../../lib/formatters';
import { LICENSE_STATUS_COLOR } from '../../../lib/license-status';
import { notifySuccess } from '../../../lib/notifier';
import { LICENSES_PAGE_SIZE, useLicenses } from '../api/get-licenses';
import { LICENSE_REISSUED, LICENSE_REVOKED, useReissueLicense, useRevokeLicense } from '../../../lib/license-actions';
import { useRotateKeyFlow } from '../../../components/ui/rotate-key-flow';
import { paths } from '../../../lib/paths';

export const LICENSES_TITLE = 'All Licenses';

const FILTER_FIELDS: readonly FilterField[] = [
  {
    kind: 'select',
    name: 'status',
    label: 'Status',
    options: [
      { label: 'Active', value: 'Active' },
      { label: 'Expired', value: 'Expired' },
      { label: 'Revoked', value: 'Revoked' },
    ],
  },
  {
    kind: 'select',
    name: 'type',
    label: 'Type',
    options: [
      { label: 'Platform', value: 'Platform' },
      { label: 'SDK', value: 'SDK' },
    ],
  },
  { kind: 'date', name: 'issued_date', label: 'Issued date' },
];

type Action = 'revoke' | 'reissue';
type Pending = { action: Action; license: License } | null;

const DIALOG: Record<Action, { title: string; confirm: string }> = {
  revoke: { title: 'Revoke License', confirm: 'Revoke' },
  reissue: { title: 'Re-issue License', confirm: 'Re-issue' },
};

export function LicensesList() {
  const navigate = useNavigate();
  const state = useListState({ defaultPageSize: LICENSES_PAGE_SIZE, filters: ['status', 'type', 'issued_date'] });
  const { search, page, pageSize, filters } = state;
  const [filterOpen, setFilterOpen] = useState(false);
  const [pending, setPending] = useState<Pending>(null);
  const revoke = useRevokeLicense();
  const reissue = useReissueLicense();
  // The flow's ask is its state setter (stable); the flow object itself is new on every render.
  const { ask: askRotation, element: rotationFlow } = useRotateKeyFlow();

  const filterQuery = useMemo(() => {
    const pick = (k: string) => (typeof filters[k] === 'string' ? (filters[k] as string) : undefined);
    const status = pick('status') as LicenseStatus | undefined;
    const type = pick('type') as LicenseType | undefined;
    const issued = pick('issued_date');
    return { ...(search ? { search } : {}), ...(status ? { status } : {}), ...(type ? { type } : {}), ...(issued ? { issued_date: issued } : {}) };
  }, [filters, search]);
  const query = useLicenses({ page, page_size: pageSize, ...filterQuery });

  const columns = useMemo<ListColumn<License>[]>(
    () => [
      { key: 'tenant_name', title: 'Tenant', render: (r) => r.tenant_name },
      { key: 'type', title: 'Type', render: (r) => r.type },
      { key: 'key', title: 'Key hint', render: (r) => <KeyHint value={r.key} /> },
      { key: 'issued_date', title: 'Issued', render: (r) => formatDate(r.issued_date) },
      { key: 'expiry_date', title: 'Expires', render: (r) => <span data-testid="license-expiry">{formatDate(r.expiry_date)}</span> },
      { key: 'price', title: 'Price', render: (r) => formatCurrency(r.price, r.currency) },
      { key: 'status', title: 'Status', render: (r) => <Tag color={LICENSE_STATUS_COLOR[r.status]}>{r.status}</Tag> },
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
                ...(r.is_revoked ? [] : [{ key: 'revoke', label: 'Revoke License', danger: true }]),
                ...(r.type === 'SDK' ? [{ key: 'reissue', label: 'Re-issue License' }] : []),
                ...(r.is_revoked ? [] : [{ key: 'rotate', label: 'Rotate key' }]),
                { key: 'tenant', label: 'View tenant' },
              ],
              onClick: ({ key }) =>
                key === 'tenant' ? navigate(paths.provider.tenant(r.tenant)) : key === 'rotate' ? askRotation(r) : setPending({ action: key as Action, license: r }),
            }}
          >
            <Button type="text" aria-label={`Actions for the license of ${r.tenant_name}`} icon={<MoreOutlined />} />
          </Dropdown>
        ),
      },
    ],
    [navigate, askRotation],
  );

  const run = () => {
    if (!pending) return;
    const done = { onSettled: () => setPending(null) };
    if (pending.action === 'revoke') revoke.mutate(pending.license.id, { ...done, onSuccess: () => notifySuccess(LICENSE_REVOKED) });
    else reissue.mutate(pending.license.id, { ...done, onSuccess: () => notifySuccess(LICENSE_REISSUED) });
  };

  return (
    <>
      <ListPage<License>
        title={LICENSES_TITLE}
        count={query.data?.data}
        rows={query.data?.data.results ?? []}
        rowKey={(r) => r.id}
        columns={columns}
        loading={query.isFetching && !query.data}
        error={query.isError && !query.data}
        onRetry={() => void query.refetch()}
        {...state.listProps}
        searchPlaceholder="Search by tenant or key"
        onOpenFilter={() => setFilterOpen(true)}
        exportName="licenses"
        exportFilters={state.query}
        emptyText={state.narrowed ? 'No license matches your search or filters' : 'No licenses yet'}
        storageKey="licenses"
      />
      <FilterModal
        open={filterOpen}
        fields={FILTER_FIELDS}
        value={filters}
        onApply={state.setFilters}
        onClose={() => setFilterOpen(false)}
      />
      <ConfirmDialog
        open={pending !== null}
        title={DIALOG[pending?.action ?? 'revoke'].title}
        confirmLabel={DIALOG[pending?.action ?? 'revoke'].confirm}
        danger={pending?.action !== 'reissue'}
        loading={revoke.isPending || reissue.isPending}
        onCancel={() => setPending(null)}
        onConfirm={run}
      >
        {pending?.action === 'reissue'
          ? `Re-issue the SDK license of ${pending.license.tenant_name}? It is extended by one year (it now expires on ${formatDate(pending.license.expiry_date)}).`
          : `Revoke the ${pending?.license.type ?? ''} license of ${pending?.license.tenant_name ?? ''}? A revoked license stops the tenant acting on the platform.`}
      </ConfirmDialog>
      {rotationFlow}
    </>
  );
}
