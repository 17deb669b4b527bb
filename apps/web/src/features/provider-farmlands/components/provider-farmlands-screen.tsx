// i18n: pending (texts not yet in the catalogue: docs/decisions/console-languages.md)
// /super-admin/farmlands: every tenant's farms. A tenant picker narrows everything to one tenant; the overview totals
// (within, outside, overlapping, unrecognized), the one farm map (GeoJSON below the tile threshold, vector tiles above;
// moving it writes ?lat&lng, and a URL with lat&lng opens there at farm zoom), and the table with its export.
import { useCallback, useMemo, useState } from 'react';
import { useUrlParams } from '../../../lib/use-url-params';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Col from 'antd/es/col';
import Row from 'antd/es/row';
import Select from 'antd/es/select';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import { useQuery } from '@tanstack/react-query';
import type { Farm } from '@farmland/contracts';
import { loadConsoleConfig } from '../../../components/map/basemap';
import { collectionToFeatures } from '../../../components/map/farm-features';
import { LazyFarmMap } from '../../../components/map/lazy-map';
import { MAP_ZOOM } from '../../../components/map/map-constants';
import { MapLegend } from '../../../components/map/map-legend';
import { ListPage, type ListColumn } from '../../../components/ui/list-page';
import { useListState } from '../../../components/ui/use-list-state';
import { StatCard } from '../../../components/ui/stat-card';
import { formatDate, formatNumber, formatSqm, formatTime } from '../../../lib/formatters';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { ALL_FARMS_PAGE_SIZE, useAllFarms } from '../api/get-all-farms';
import { useAllFarmsMap } from '../api/get-all-farms-map';
import { useAllFarmsOverview } from '../api/get-all-farms-overview';
import { useTenantOptions } from '../api/get-tenant-options';
import { queryKeys } from '../../../lib/query-keys';

export const PROVIDER_FARMLANDS_TITLE = 'Farmlands';
const TILES_URL = '/api/farms/tiles/{z}/{x}/{y}.mvt';

function focusFrom(params: URLSearchParams): [number, number] | undefined {
  const lat = Number(params.get('lat'));
  const lng = Number(params.get('lng'));
  return params.get('lat') && params.get('lng') && Number.isFinite(lat) && Number.isFinite(lng) && Math.abs(lat) <= 90 && Math.abs(lng) <= 180 ? [lng, lat] : undefined;
}

function TenantPicker({ value, onChange }: { value: string | undefined; onChange: (id: string | undefined) => void }) {
  const [text, setText] = useState('');
  const search = useDebouncedValue(text);
  const options = useTenantOptions(search.trim());
  const [picked, setPicked] = useState<{ id: string; name: string } | null>(null);
  const list = options.data?.data.results ?? [];
  const withPicked = picked && !list.some((t) => t.id === picked.id) ? [picked, ...list] : list;
  return (
    <Select
      aria-label="Tenant"
      showSearch={{ filterOption: false, onSearch: setText }}
      allowClear
      placeholder="All tenants"
      style={{ width: 260 }}
      loading={options.isFetching}
      value={value}
      notFoundContent={options.isError ? 'The tenants could not be loaded' : 'No tenant found'}
      options={withPicked.map((t) => ({ value: t.id, label: t.name }))}
      onChange={(id: string | undefined) => {
        setPicked(id ? (withPicked.find((t) => t.id === id) ?? null) : null);
        onChange(id);
      }}
    />
  );
}

export function ProviderFarmlandsScreen() {
  const [params, setParams] = useUrlParams();
  const tenantId = params.get('tenant') ?? undefined;
  const state = useListState({ defaultPageSize: ALL_FARMS_PAGE_SIZE });
  const { search, page, pageSize } = state;
  // The address's lat/lng is read once: later map moves write it back without re-centring the map.
  const [focus] = useState(() => focusFrom(params));

  const filter = { search: search || undefined, tenant_id: tenantId };
  const list = useAllFarms({ page, page_size: pageSize, ...filter });
  const overview = useAllFarmsOverview(tenantId);
  const config = useQuery({ queryKey: queryKeys.consoleConfig, queryFn: loadConsoleConfig, staleTime: Infinity });
  const total = overview.data?.data.total_farms;
  const useTiles = total !== undefined && config.data !== undefined && total > config.data.map_tile_threshold && !search;
  const mapData = useAllFarmsMap(filter, total !== undefined && config.data !== undefined && !useTiles);
  const features = useMemo(() => collectionToFeatures(mapData.data?.data), [mapData.data]);

  const setTenant = (id: string | undefined) =>
    setParams(
      (cur) => {
        const next = new URLSearchParams(cur);
        if (id) next.set('tenant', id);
        else next.delete('tenant');
        next.delete('page');
        return next;
      },
      { replace: true },
    );
  const onMoveEnd = useCallback(
    ([lng, lat]: [number, number]) =>
      setParams(
        (cur) => {
          const next = new URLSearchParams(cur);
          next.set('lat', lat.toFixed(6));
          next.set('lng', lng.toFixed(6));
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  const columns = useMemo<ListColumn<Farm>[]>(
    () => [
      { key: 'name', title: 'Name', render: (r) => r.name },
      // The API names each row's tenant for provider staff (tenant_name), whichever tenant it is.
      { key: 'tenant', title: 'Tenant', render: (r) => r.tenant_name ?? '--' },
      { key: 'farmer', title: 'Farmer', render: (r) => r.farmer },
      { key: 'area', title: 'Area (sqm)', render: (r) => <span className="nowrap">{formatNumber(r.area, 2)}</span> },
      { key: 'operational_area', title: 'Operational area', render: (r) => r.operational_area_name ?? '--' },
      { key: 'mapped_by', title: 'Mapped by', render: (r) => r.mapped_by ?? '--', defaultHidden: true },
      {
        key: 'updated_at',
        title: 'Updated at',
        render: (r) => (
          <time dateTime={r.updated_at} className="nowrap">
            {formatDate(r.updated_at)} <span className="text-muted">{formatTime(r.updated_at)}</span>
          </time>
        ),
      },
      { key: 'status', title: 'Status', render: (r) => (r.is_overlapping ? <Tag color="green">Overlap</Tag> : r.flag ? <Tag color="orange">Flagged</Tag> : <Tag color="purple">Mapped</Tag>) },
    ],
    [],
  );

  const o = overview.data?.data;
  const exportFilters: Record<string, string> = { ...(search ? { search } : {}), ...(tenantId ? { tenant_id: tenantId } : {}) };

  return (
    <div className="stack-16" data-testid="provider-farmlands">
      <div className="inline-12">
        <Typography.Title level={1} className="page-title">
          Farmland Overview
        </Typography.Title>
        <div className="grow" />
        <TenantPicker value={tenantId} onChange={setTenant} />
      </div>
      {overview.isError && <Alert type="error" showIcon message="The overview could not be loaded" action={<Button onClick={() => void overview.refetch()}>Try again</Button>} />}
      <Row gutter={[16, 16]}>
        <Col xs={12} md={8} xl={4}>
          <StatCard title="All farms" value={o?.total_farms} testId="total-farms" />
        </Col>
        <Col xs={12} md={8} xl={5}>
          <StatCard title="Within Op. Areas" value={o?.total_within_operational_area} testId="total-within" />
        </Col>
        <Col xs={12} md={8} xl={5}>
          <StatCard title="Outside Op. Areas" value={o?.total_outside_operational_area} testId="total-outside" />
        </Col>
        <Col xs={12} md={12} xl={5}>
          <StatCard title="Overlapping" value={o?.total_overlapping_farms} testId="total-overlapping" />
        </Col>
        <Col xs={24} md={12} xl={5}>
          <StatCard title="Unrecognized" value={o?.total_unrecognized_farms} testId="total-unrecognized" />
        </Col>
      </Row>
      <Card size="small" title="Map of the farms">
        <LazyFarmMap
          features={useTiles ? undefined : features}
          tilesUrl={useTiles ? `${TILES_URL}${tenantId ? `?tenant_id=${tenantId}` : ''}` : undefined}
          center={focus}
          zoom={focus ? MAP_ZOOM.farm : undefined}
          fitToFeatures={!focus}
          height={420}
          onMoveEnd={onMoveEnd}
          renderPopup={(f) => (
            <div>
              <strong>{f.name}</strong>
              <div>{String(f.properties['farmer'] ?? '')}</div>
              <div>{formatSqm(Number(f.properties['area']))}</div>
            </div>
          )}
          ariaLabel="Map of every tenant's farms"
          testId="provider-farm-map"
        />
        <MapLegend />
        {mapData.data?.data.truncated && (
        <Typography.Text type="warning">The map shows the newest {mapData.data.data.features.length.toLocaleString('en-US')} farms; pick a tenant or search to narrow it.</Typography.Text>
      )}
        {!useTiles && mapData.isSuccess && features.length === 0 && <Typography.Text type="secondary">No farms to show on the map.</Typography.Text>}
        {mapData.isError && (
          <Typography.Text type="danger">
            The farms could not be loaded on the map. <Button size="small" onClick={() => void mapData.refetch()}>Try again</Button>
          </Typography.Text>
        )}
      </Card>
      <ListPage<Farm>
        headingLevel={2}
        title={PROVIDER_FARMLANDS_TITLE}
        count={list.data?.data}
        rows={list.data?.data.results ?? []}
        rowKey={(r) => r.id}
        columns={columns}
        loading={list.isFetching && !list.data}
        error={list.isError && !list.data}
        onRetry={() => void list.refetch()}
        {...state.listProps}
        searchPlaceholder="Search by farm, farmer or farmer id"
        exportName="mappings"
        exportFilters={exportFilters}
        emptyText="No farmlands found"
        storageKey="provider-farmlands"
      />
    </div>
  );
}
