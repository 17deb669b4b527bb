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
import { t, type Text } from '../../../i18n';
import { licensesText as m } from '../licenses.messages';

const STATUS_TEXT: Record<LicenseStatus, Text> = { Active: m.statusActive, Expired: m.statusExpired, Revoked: m.statusRevoked };
const TYPE_TEXT: Record<LicenseType, Text> = { Platform: m.typePlatform, SDK: m.typeSdk };

/** The filter's fields (a function: the labels are read in the page's language). */
const filterFields = (): FilterField[] => [
  {
    kind: 'select',
    name: 'status',
    label: t(m.status),
    options: (['Active', 'Expired', 'Revoked'] as const).map((s) => ({ label: t(STATUS_TEXT[s]), value: s })),
  },
  {
    kind: 'select',
    name: 'type',
    label: t(m.type),
    options: (['Platform', 'SDK'] as const).map((ty) => ({ label: t(TYPE_TEXT[ty]), value: ty })),
  },
  { kind: 'date', name: 'issued_date', label: t(m.issuedDate) },
];

type Action = 'revoke' | 'reissue';
type Pending = { action: Action; license: License } | null;

const DIALOG: Record<Action, { title: Text; confirm: Text }> = {
  revoke: { title: m.revokeTitle, confirm: m.revoke },
  reissue: { title: m.reissueTitle, confirm: m.reissue },
};

export function LicensesList() {
  const navigate = useNavigate();
  const state = useListState({ defaultPageSize: LICENSES_PAGE_SIZE, filters: ['status', 'type', 'issued_date'] });
  const { search, page, pageSize, filters } = state;
  const [filterOpen, setFilterOpen] = useState(false);
  const fields = useMemo(() => filterFields(), []);
  const [pending, setPending] = useState<Pending>(null);
  const revoke = useRevokeLicense();
  const reissue = useReissueLicense();
  // The flow's ask is its state setter (stable); the flow object itself is new on every render.
  const { ask: askRotation, element: rotationFlow } = useRotateKeyFlow();

  const filterQuery = useMemo(() => {
    const pick = (k: string) => (typeof filters[k] === 'string' ? filters[k] : undefined);
    const status = pick('status') as LicenseStatus | undefined;
    const type = pick('type') as LicenseType | undefined;
    const issued = pick('issued_date');
    return { ...(search ? { search } : {}), ...(status ? { status } : {}), ...(type ? { type } : {}), ...(issued ? { issued_date: issued } : {}) };
  }, [filters, search]);
  const query = useLicenses({ page, page_size: pageSize, ...filterQuery });

  const columns = useMemo<ListColumn<License>[]>(
    () => [
      { key: 'tenant_name', title: t(m.tenant), render: (r) => r.tenant_name },
      { key: 'type', title: t(m.type), render: (r) => (TYPE_TEXT[r.type] ? t(TYPE_TEXT[r.type]) : r.type) },
      { key: 'key', title: t(m.keyHint), render: (r) => <KeyHint value={r.key} /> },
      { key: 'issued_date', title: t(m.issued), render: (r) => formatDate(r.issued_date) },
      { key: 'expiry_date', title: t(m.expires), render: (r) => <span data-testid="license-expiry">{formatDate(r.expiry_date)}</span> },
      { key: 'price', title: t(m.price), render: (r) => formatCurrency(r.price, r.currency) },
      {
        key: 'status',
        title: t(m.status),
        render: (r) => <Tag color={LICENSE_STATUS_COLOR[r.status]}>{STATUS_TEXT[r.status] ? t(STATUS_TEXT[r.status]) : r.status}</Tag>,
      },
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
                ...(r.is_revoked ? [] : [{ key: 'revoke', label: t(m.revokeLicense), danger: true }]),
                ...(r.type === 'SDK' ? [{ key: 'reissue', label: t(m.reissueLicense) }] : []),
                ...(r.is_revoked ? [] : [{ key: 'rotate', label: t(m.rotateKey) }]),
                { key: 'tenant', label: t(m.viewTenant) },
              ],
              onClick: ({ key }) =>
                key === 'tenant'
                  ? void navigate(paths.provider.tenant(r.tenant))
                  : key === 'rotate'
                    ? askRotation(r)
                    : setPending({ action: key as Action, license: r }),
            }}
          >
            <Button type="text" aria-label={t(m.actionsFor, { tenant: r.tenant_name })} icon={<MoreOutlined />} />
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
        exportName="licenses"
        exportFilters={state.query}
        emptyText={t(state.narrowed ? m.noMatch : m.empty)}
        storageKey="licenses"
      />
      <FilterModal open={filterOpen} fields={fields} value={filters} onApply={state.setFilters} onClose={() => setFilterOpen(false)} />
      <ConfirmDialog
        open={pending !== null}
        title={t(DIALOG[pending?.action ?? 'revoke'].title)}
        confirmLabel={t(DIALOG[pending?.action ?? 'revoke'].confirm)}
        danger={pending?.action !== 'reissue'}
        loading={revoke.isPending || reissue.isPending}
        onCancel={() => setPending(null)}
        onConfirm={run}
      >
        {pending?.action === 'reissue'
          ? t(m.reissueQuestion, { tenant: pending.license.tenant_name, date: formatDate(pending.license.expiry_date) })
          : t(m.revokeQuestion, { type: pending ? t(TYPE_TEXT[pending.license.type] ?? m.typePlatform) : '', tenant: pending?.license.tenant_name ?? '' })}
      </ConfirmDialog>
      {rotationFlow}
    </>
  );
}
