// i18n: pending (texts not yet in the catalogue: docs/decisions/console-languages.md)
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
import { KIND_OPTIONS, LayerUploadDrawer } from './layer-upload-drawer';
import { RiskSettingsCard } from './risk-settings-card';

export const LAYERS_PAGE_SIZE = 10;
export const DELETE_LAYER_QUESTION = 'Are you sure you want to delete this reference layer? Its features and every farm\u2019s figures against it are removed; this action cannot be undone.';
const TENANT_FILTERS = ['kind', 'owner'] as const;
const PROVIDER_FILTERS = ['kind'] as const;

const scopeText = (layer: ReferenceLayer, scope: LayerScope) =>
  layer.owner === 'provider' ? (scope === 'tenant' ? 'Provider-wide (read-only)' : 'Provider-wide') : 'This organisation';

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
    { kind: 'select', name: 'kind', label: 'Kind', options: KIND_OPTIONS },
    ...(scope === 'tenant'
      ? ([{ kind: 'select', name: 'owner', label: 'Scope', options: [{ value: 'provider', label: 'Provider-wide' }, { value: 'tenant', label: 'This organisation' }] }] as FilterField[])
      : []),
  ];

  // Every column has a width: Source and Licence are cut with an ellipsis, which makes the table's layout fixed, and a
  // fixed layout without widths squeezed the other columns on a phone (headings broken mid-word: "Nam|e"). With widths
  // (1,054 px in all) the table fills a desktop card as before and scrolls inside its card on a phone.
  const columns: ListColumn<ReferenceLayer>[] = [
    {
      key: 'name',
      title: 'Name',
      width: 150,
      render: (l) => (
        <>
          <span className="block strong">{l.name}</span>
          {l.filename && <span className="text-muted small wrap-anywhere">{l.filename}</span>}
        </>
      ),
    },
    { key: 'kind', title: 'Kind', width: 90, render: (l) => LAYER_KIND_LABEL[l.kind] },
    { key: 'reference_date', title: 'Reference date', width: 100, render: (l) => <span className="nowrap">{formatDate(l.reference_date)}</span> },
    { key: 'source', title: 'Source', width: 100, ellipsis: true, tooltip: (l) => l.source, render: (l) => l.source },
    { key: 'licence', title: 'Licence', width: 90, ellipsis: true, tooltip: (l) => l.licence, render: (l) => l.licence },
    { key: 'scope', title: 'Scope', width: 100, render: (l) => scopeText(l, scope) },
    { key: 'status', title: 'Status', width: 170, render: (l) => <LayerStatus progress={l} /> },
    {
      key: 'feature_count',
      title: 'Features',
      width: 80,
      render: (l) => (
        <>
          <span className="block">{formatNumber(l.feature_count)}</span>
          {l.repaired_count > 0 && <span className="text-muted small">{formatNumber(l.repaired_count)} repaired</span>}
        </>
      ),
    },
    { key: 'updated_at', title: 'Updated', width: 130, render: (l) => <span className="nowrap">{formatDateTime(l.updated_at)}</span> },
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
                { key: 'replace', label: 'Replace File', disabled: l.loading_version !== null },
                { key: 'delete', label: 'Delete Layer', danger: true },
              ],
              onClick: ({ key }) => (key === 'replace' ? setDrawer({ replacing: l, key: Date.now() }) : setDeleting(l)),
            }}
          >
            <Button type="text" size="small" icon={<MoreOutlined aria-hidden="true" />} aria-label={`Actions for ${l.name}`} />
          </Dropdown>
        ) : null,
    },
  ];

  const emptyText = state.narrowed
    ? 'No reference layers match your search or filters'
    : scope === 'provider'
      ? 'No provider layers yet: upload one with Upload Layer (a forest-cover 2020 layer lets every tenant screen its farms)'
      : 'No reference layers yet: upload one with Upload Layer, or ask your service provider for a forest-cover 2020 layer';

  return (
    <>
      <ListPage<ReferenceLayer>
        title="Reference Layers"
        count={list.data ? matching.length : undefined}
        rows={rows}
        rowKey={(l) => l.id}
        columns={columns}
        loading={list.isFetching && !list.data}
        error={list.isError && !list.data}
        onRetry={() => void list.refetch()}
        {...state.listProps}
        searchPlaceholder="Search name, kind, source or licence"
        onOpenFilter={() => setFilterOpen(true)}
        emptyText={emptyText}
        storageKey={`reference-layers-${scope}`}
        actions={
          <Button type="primary" icon={<PlusOutlined aria-hidden="true" />} onClick={() => setDrawer({ replacing: null, key: Date.now() })}>
            Upload Layer
          </Button>
        }
      />
      {scope === 'tenant' && <RiskSettingsCard />}
      <FilterModal open={filterOpen} fields={filterFields} value={filters} onApply={state.setFilters} onClose={() => setFilterOpen(false)} />
      {drawer && <LayerUploadDrawer key={drawer.key} open scope={scope} replacing={drawer.replacing} onClose={() => setDrawer(null)} />}
      <ConfirmDialog
        open={Boolean(deleting)}
        title="Delete Reference Layer"
        confirmLabel="Delete"
        danger
        loading={remove.isPending}
        onConfirm={() =>
          deleting &&
          remove.mutate(
            { scope, id: deleting.id },
            {
              onSuccess: (res) => {
                notifySuccess(res.message ?? 'Reference layer deleted successfully');
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
            <p>{DELETE_LAYER_QUESTION}</p>
          </>
        )}
      </ConfirmDialog>
    </>
  );
}
