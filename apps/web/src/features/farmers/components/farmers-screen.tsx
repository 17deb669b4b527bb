// /admin/farmers, "Farmer's List": 'All Farmers' with the count, 'Export Table' and 'New Farmer' (Create Single, Bulk
// Upload); a search debounced by 400 ms, the column chooser, and a Filter modal by country/region and status (All,
// Mapped, Unmapped) applied on Apply Filter. A row goes to ?farmer_id={id}&view=list and opens the farmer drawer; its
// farm opens on ?farm_id; the map view centres on ?lat&lng. The drawers live in the address, so a reload keeps them.
import { useMemo, useState } from 'react';
import { useUrlParams } from '../../../lib/use-url-params';
import { useQueryClient } from '@tanstack/react-query';
import Avatar from 'antd/es/avatar';
import Button from 'antd/es/button';
import Dropdown from 'antd/es/dropdown';
import { DownOutlined, MoreOutlined, PlusOutlined, UserOutlined } from '@ant-design/icons';
import { createFarmerBody, declaredArea, normalizePolygonInput, pointPosition, type Farmer } from '@farmland/contracts';
import { BulkUploadModal } from '../../../components/ui/bulk-upload-modal';
import { FilterModal, type FilterField, type FilterValues } from '../../../components/ui/filter-modal';
import { ListPage, type ListColumn } from '../../../components/ui/list-page';
import { StatusTag } from '../../../components/ui/status-tag';
import { useListState } from '../../../components/ui/use-list-state';
import { formatNumber } from '../../../lib/formatters';
import { useRegions } from '../../../lib/lookups';
import { FARMERS_PAGE_SIZE, useFarmers } from '../api/get-farmers';
import { DeleteFarmerDialog } from './delete-farmer-dialog';
import { FarmerDrawer, type FarmerView } from './farmer-drawer';
import { FarmerFarmDrawer } from './farmer-farm-drawer';
import { FarmerFormModal } from './farmer-form-modal';
import { queryKeys } from '../../../lib/query-keys';
import { t } from '../../../i18n';
import { farmersText as m } from '../farmers.messages';

/** The columns a farmer row needs for creation (the bulk correction table): the farmer's, then the farm's. */
export const FARMER_BULK_COLUMNS = [
  'first_name',
  'last_name',
  'email',
  'phone_number',
  'gender',
  'address',
  'location',
  'folio_id',
  'farm_name',
  'operational_area_id',
  'farm_coordinates',
  'farm_point',
  'farm_declared_area_sqm',
] as const;
const ALL = 'all';
const FARMER_FILTERS = ['region', 'status'] as const;
/** The farmer drawer's own parameters: its tab, the open farm, the map's centre. */
const FARMER_DRAWER_PARAMS = ['farm_id', 'view', 'lat', 'lng'] as const;
const statusOptions = () => [
  { label: t(m.all), value: ALL },
  { label: t(m.mapped), value: 'true' },
  { label: t(m.unmapped), value: 'false' },
];

/** The bulk table's quick check of an edited cell: the contract's farmer fields and the registry's polygon rules. */
export function validateFarmerCell(column: string, value: string): string | undefined {
  const v = value.trim();
  if (column === 'farm_coordinates') {
    if (!v) return undefined;
    const r = normalizePolygonInput(v, 'farm');
    return r.ok ? undefined : r.message;
  }
  if (column === 'farm_point' || column === 'farm_declared_area_sqm') {
    const parsed = (column === 'farm_point' ? pointPosition : declaredArea).safeParse(v === '' ? undefined : v);
    return parsed.success ? undefined : parsed.error.issues[0]?.message;
  }
  if (column === 'operational_area_id') return v && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v) ? t(m.useAreaId) : undefined;
  if (column === 'farm_name') return v.length > 200 ? t(m.atMost200) : undefined;
  const shape = createFarmerBody.shape as Record<
    string,
    { safeParse: (x: unknown) => { success: boolean; error?: { issues: { message: string }[] } } } | undefined
  >;
  const schema = shape[column];
  if (!schema) return undefined;
  const input = v === '' ? undefined : column === 'gender' ? v.charAt(0).toUpperCase() + v.slice(1).toLowerCase() : v;
  const parsed = schema.safeParse(input);
  return parsed.success ? undefined : parsed.error?.issues[0]?.message;
}

export function FarmersScreen() {
  const [params, setParams] = useUrlParams();
  const client = useQueryClient();
  const state = useListState({ defaultPageSize: FARMERS_PAGE_SIZE, filters: FARMER_FILTERS, drawer: 'farmer_id', drawerParams: FARMER_DRAWER_PARAMS });
  const { search, page, pageSize, filters } = state;
  const [filterOpen, setFilterOpen] = useState(false);
  const [form, setForm] = useState<{ id: string | null } | null>(null);
  const [deleting, setDeleting] = useState<Farmer | null>(null);
  const [bulkOpen, setBulkOpen] = useState(false);

  const farmerId = state.drawer;
  const farmId = params.get('farm_id');
  const view: FarmerView = params.get('view') === 'map' ? 'map' : 'list';
  const lat = Number(params.get('lat'));
  const lng = Number(params.get('lng'));
  const centre: [number, number] | undefined = params.get('lat') && params.get('lng') && Number.isFinite(lat) && Number.isFinite(lng) ? [lng, lat] : undefined;

  const status = filters['status'] === 'true' || filters['status'] === 'false' ? filters['status'] : undefined;
  const region = typeof filters['region'] === 'string' ? filters['region'] : undefined;
  const list = useFarmers({ page, page_size: pageSize, search: search || undefined, is_mapped: status, region });
  const regions = useRegions();

  const openFarmer = (id: string) => state.openDrawer(id, { view: 'list' });
  const closeFarmer = state.closeDrawer;

  const filterFields = useMemo<FilterField[]>(
    () => [
      {
        kind: 'select',
        name: 'region',
        label: t(m.country),
        options: [{ label: t(m.all), value: ALL }, ...(regions.data?.data.results ?? []).map((r) => ({ label: r.name, value: r.id }))],
      },
      { kind: 'select', name: 'status', label: t(m.status), options: statusOptions() },
    ],
    [regions.data],
  );

  const columns = useMemo<ListColumn<Farmer>[]>(
    () => [
      {
        key: 'farmer_name',
        title: t(m.farmerName),
        render: (r) => (
          <span className="inline-flex gap-8">
            <Avatar size={28} src={r.image ?? undefined} icon={<UserOutlined />} alt="" className="no-shrink" />
            {r.farmer_name}
          </span>
        ),
      },
      { key: 'phone_number', title: t(m.phone), render: (r) => r.phone_number ?? '--' },
      { key: 'folio_id', title: t(m.farmerId), render: (r) => r.folio_id },
      { key: 'address', title: t(m.address), render: (r) => r.address ?? '--', ellipsis: true, tooltip: (r) => r.address },
      { key: 'number_of_farm', title: t(m.numberOfFarms), render: (r) => formatNumber(r.number_of_farm) },
      {
        key: 'total_farm_size',
        title: t(m.totalFarmSize),
        render: (r) => <span className="nowrap">{t(m.sqm, { area: formatNumber(r.total_farm_size, 4) })}</span>,
      },
      {
        key: 'status',
        title: t(m.status),
        defaultHidden: true,
        render: (r) => <StatusTag tone={r.is_mapped ? 'good' : 'neutral'}>{r.is_mapped ? t(m.mapped) : t(m.unmapped)}</StatusTag>,
      },
      {
        key: 'actions',
        title: '',
        alwaysVisible: true,
        width: 56,
        render: (r) => (
          <Dropdown
            trigger={['click']}
            menu={{
              items: [
                { key: 'edit', label: t(m.editFarmer) },
                { key: 'delete', label: t(m.deleteFarmer), danger: true },
              ],
              onClick: ({ key, domEvent }) => {
                domEvent.stopPropagation();
                if (key === 'edit') setForm({ id: r.id });
                else setDeleting(r);
              },
            }}
          >
            <Button
              type="text"
              size="small"
              icon={<MoreOutlined aria-hidden="true" />}
              aria-label={t(m.actionsFor, { name: r.farmer_name })}
              onClick={(e) => e.stopPropagation()}
            />
          </Dropdown>
        ),
      },
    ],
    [],
  );

  const exportFilters = useMemo(() => {
    const f: Record<string, string> = {};
    if (search) f['search'] = search;
    if (status) f['is_mapped'] = status;
    if (region) f['region'] = region;
    return f;
  }, [search, status, region]);
  // 'All' is no filter: it stays out of the address and of the count.
  const applyFilters = (v: FilterValues) => state.setFilters(Object.fromEntries(Object.entries(v).filter(([, x]) => x !== ALL)));

  return (
    <>
      <ListPage<Farmer>
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
        exportName="farmers"
        exportLabel={t(m.exportTable)}
        exportFilters={exportFilters}
        onRowClick={(r) => openFarmer(r.id)}
        emptyText={search || status || region ? t(m.emptyFiltered) : t(m.emptyNone)}
        storageKey="farmers"
        actions={
          <Dropdown
            trigger={['click']}
            menu={{
              items: [
                { key: 'single', label: t(m.createSingle) },
                { key: 'bulk', label: t(m.bulkUpload) },
              ],
              onClick: ({ key }) => (key === 'single' ? setForm({ id: null }) : setBulkOpen(true)),
            }}
          >
            <Button type="primary" icon={<PlusOutlined aria-hidden="true" />}>
              {t(m.newFarmer)} <DownOutlined aria-hidden="true" />
            </Button>
          </Dropdown>
        }
      />
      <FilterModal open={filterOpen} fields={filterFields} value={filters} onApply={applyFilters} onClose={() => setFilterOpen(false)} />
      <FarmerDrawer
        farmerId={farmerId}
        view={view}
        centre={centre}
        onView={(v) => state.setDrawerParams({ view: v })}
        onSelectFarm={([x, y]) => state.setDrawerParams({ view: 'map', lat: y.toFixed(6), lng: x.toFixed(6) })}
        onOpenFarm={(id) =>
          setParams((cur) => {
            const next = new URLSearchParams(cur);
            next.set('farm_id', id);
            return next;
          })
        }
        onClose={closeFarmer}
      />
      <FarmerFarmDrawer farmerId={farmerId} farmId={farmId} onBack={() => state.setDrawerParams({ farm_id: null })} />
      <FarmerFormModal open={Boolean(form)} farmerId={form?.id ?? null} onClose={() => setForm(null)} />
      <DeleteFarmerDialog
        farmer={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={(id) => {
          if (farmerId === id) closeFarmer();
        }}
      />
      <BulkUploadModal
        open={bulkOpen}
        title={t(m.bulkUploadTitle)}
        endpoint="/farmers/bulk-upload/"
        template={{ path: '/farmers/template.csv', filename: 'farmers-template.csv' }}
        columns={FARMER_BULK_COLUMNS}
        validateCell={validateFarmerCell}
        onCreated={() => {
          void client.invalidateQueries({ queryKey: queryKeys.farmers.all });
          void client.invalidateQueries({ queryKey: queryKeys.farms.all });
          void client.invalidateQueries({ queryKey: queryKeys.analytics.all });
        }}
        onClose={() => setBulkOpen(false)}
        testId="farmers-bulk-upload"
      />
    </>
  );
}
