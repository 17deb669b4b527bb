// Reference layers (EUDR, issue 29): /admin/reference-layers for a tenant admin (its own layers, and the provider's,
// read-only) and /super-admin/reference-layers for provider staff (the provider-wide layers every tenant screens
// against). One list page: name, kind, reference date, source, licence, scope, status with progress while the
// background job runs, feature count, updated. Upload and replace in a drawer; delete after a confirmation. A tenant
// admin also sets the plot-risk thresholds below the list (docs/decisions/0077-reference-layers-screen.md).
import { useMemo, useState } from 'react';
import Button from 'antd/es/button';
import Dropdown from 'antd/es/dropdown';
import { MoreOutlined, PlusOutlined } from '@ant-design/icons';
import type { ReferenceLayer } from '@farmland/contracts';
import { LAYER_KIND_LABEL } from '../../../components/eudr/eudr-labels';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { FilterModal, type FilterField } from '../../../components/ui/filter-modal';
import { ListPage, type ListColumn } from '../../../components/ui/list-page';
import { useListState } from '../../../components/ui/use-list-state';
import { formatDate, formatDateTime, formatNumber } from '../../../lib/formatters';
import { notifySuccess } from '../../../lib/notifier';
import { useDeleteReferenceLayer } from '../api/delete-reference-layer';
import { useReferenceLayers } from '../api/get-reference-layers';
import type { LayerScope } from '../api/layer-scope';
import { LayerStatus } from './layer-status';
import { kindOptions, LayerUploadDrawer } from './layer-upload-drawer';
import { RiskSettingsCard } from './risk-settings-card';
import { t } from '../../../i18n';
import { referenceLayersText as m } from '../reference-layers.messages';

export const LAYERS_PAGE_SIZE = 10;
const TENANT_FILTERS = ['kind', 'owner'] as const;
const PROVIDER_FILTERS = ['kind'] as const;

const scopeText = (layer: ReferenceLayer, scope: LayerScope) =>
  t(layer.owner === 'provider' ? (scope === 'tenant' ? m.providerReadOnly : m.providerWide) : m.thisOrganisation);

/** A layer matches a search when its name, kind, source, licence or file name holds every word. */
export function matchesSearch(layer: ReferenceLayer, search: string): boolean {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return true;
  const text = [layer.name, LAYER_KIND_LABEL[layer.kind], layer.kind, layer.source, layer.licence, layer.filename ?? ''].join(' ').toLowerCase();
  return words.every((w) => text.includes(w));
}

export function ReferenceLayersScreen({ scope }: { scope: LayerScope }) {
  const state = useListState({ defaultPageSize: LAYERS_PAGE_SIZE, filters: scope === 'tenant' ? TENANT_FILTERS : PROVIDER_FILTERS });
  const { search, page, pageSize, filters } = state;
  const kind = typeof filters['kind'] === 'string' ? filters['kind'] : undefined;
  const owner = typeof filters['owner'] === 'string' ? filters['owner'] : undefined;
  const list = useReferenceLayers(scope, { kind, owner });
  const remove = useDeleteReferenceLayer();
  const [filterOpen, setFilterOpen] = useState(false);
  // Each opening mounts the drawer afresh (its key), so no file, error or job of an earlier one remains.
  const [drawer, setDrawer] = useState<{ replacing: ReferenceLayer | null; key: number } | null>(null);
  const [deleting, setDeleting] = useState<ReferenceLayer | null>(null);

  // Layers are few (tens): the API answers them all; the search and the pages are applied here.
  const matching = useMemo(() => (list.data?.data ?? []).filter((l) => matchesSearch(l, search)), [list.data, search]);
  const rows = useMemo(() => matching.slice((page - 1) * pageSize, page * pageSize), [matching, page, pageSize]);
  const canManage = (l: ReferenceLayer) => (scope === 'provider' ? l.owner === 'provider' : l.owner === 'tenant');

  const filterFields: FilterField[] = [
    { kind: 'select', name: 'kind', label: t(m.kind), options: kindOptions() },
    ...(scope === 'tenant'
      ? ([
          {
            kind: 'select',
            name: 'owner',
            label: t(m.scope),
            options: [
              { value: 'provider', label: t(m.providerWide) },
              { value: 'tenant', label: t(m.thisOrganisation) },
            ],
          },
        ] as FilterField[])
      : []),
  ];

  // Every column has a width: Source and Licence are cut with an ellipsis, which makes the table's layout fixed, and a
  // fixed layout without widths squeezed the other columns on a phone (headings broken mid-word: "Nam|e"). With widths
  // (1,054 px in all) the table fills a desktop card as before and scrolls inside its card on a phone.
  const columns: ListColumn<ReferenceLayer>[] = [
    {
      key: 'name',
      title: t(m.name),
      width: 150,
      render: (l) => (
        <>
          <span className="block strong">{l.name}</span>
          {l.filename && <span className="text-muted small wrap-anywhere">{l.filename}</span>}
        </>
      ),
    },
    { key: 'kind', title: t(m.kind), width: 90, render: (l) => LAYER_KIND_LABEL[l.kind] },
    { key: 'reference_date', title: t(m.referenceDate), width: 100, render: (l) => <span className="nowrap">{formatDate(l.reference_date)}</span> },
    { key: 'source', title: t(m.source), width: 100, ellipsis: true, tooltip: (l) => l.source, render: (l) => l.source },
    { key: 'licence', title: t(m.licence), width: 90, ellipsis: true, tooltip: (l) => l.licence, render: (l) => l.licence },
    { key: 'scope', title: t(m.scope), width: 100, render: (l) => scopeText(l, scope) },
    { key: 'status', title: t(m.status), width: 170, render: (l) => <LayerStatus progress={l} /> },
    {
      key: 'feature_count',
      title: t(m.features),
      width: 80,
      render: (l) => (
        <>
          <span className="block">{formatNumber(l.feature_count)}</span>
          {l.repaired_count > 0 && <span className="text-muted small">{t(m.repaired, { n: formatNumber(l.repaired_count) })}</span>}
        </>
      ),
    },
    { key: 'updated_at', title: t(m.updated), width: 130, render: (l) => <span className="nowrap">{formatDateTime(l.updated_at)}</span> },
    {
      key: 'actions',
      title: '',
      alwaysVisible: true,
      exportKey: null,
      width: 44,
      render: (l) =>
        canManage(l) ? (
          <Dropdown
            trigger={['click']}
            menu={{
              items: [
                { key: 'replace', label: t(m.replaceFile), disabled: l.loading_version !== null },
                { key: 'delete', label: t(m.deleteLayer), danger: true },
              ],
              onClick: ({ key }) => (key === 'replace' ? setDrawer({ replacing: l, key: Date.now() }) : setDeleting(l)),
            }}
          >
            <Button type="text" size="small" icon={<MoreOutlined aria-hidden="true" />} aria-label={t(m.actionsFor, { name: l.name })} />
          </Dropdown>
        ) : null,
    },
  ];

  const emptyText = state.narrowed ? t(m.noMatch) : scope === 'provider' ? t(m.noProviderLayers) : t(m.noLayers);

  return (
    <>
      <ListPage<ReferenceLayer>
        title={t(m.title)}
        count={list.data ? matching.length : undefined}
        rows={rows}
        rowKey={(l) => l.id}
        columns={columns}
        loading={list.isFetching && !list.data}
        error={list.isError && !list.data}
        onRetry={() => void list.refetch()}
        {...state.listProps}
        searchPlaceholder={t(m.searchPlaceholder)}
        onOpenFilter={() => setFilterOpen(true)}
        emptyText={emptyText}
        storageKey={`reference-layers-${scope}`}
        actions={
          <Button type="primary" icon={<PlusOutlined aria-hidden="true" />} onClick={() => setDrawer({ replacing: null, key: Date.now() })}>
            {t(m.uploadLayer)}
          </Button>
        }
      />
      {scope === 'tenant' && <RiskSettingsCard />}
      <FilterModal open={filterOpen} fields={filterFields} value={filters} onApply={state.setFilters} onClose={() => setFilterOpen(false)} />
      {drawer && <LayerUploadDrawer key={drawer.key} open scope={scope} replacing={drawer.replacing} onClose={() => setDrawer(null)} />}
      <ConfirmDialog
        open={Boolean(deleting)}
        title={t(m.deleteTitle)}
        confirmLabel={t(m.delete)}
        danger
        loading={remove.isPending}
        onConfirm={() =>
          deleting &&
          remove.mutate(
            { scope, id: deleting.id },
            {
              onSuccess: (res) => {
                notifySuccess(res.message ?? t(m.deletedOk));
                setDeleting(null);
              },
            },
          )
        }
        onCancel={() => setDeleting(null)}
      >
        {deleting && (
          <>
            <p className="strong">{deleting.name}</p>
            <p>{t(m.deleteQuestion)}</p>
          </>
        )}
      </ConfirmDialog>
    </>
  );
}
