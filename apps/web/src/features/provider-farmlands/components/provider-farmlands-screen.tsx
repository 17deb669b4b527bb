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
import { t } from '../../../i18n';
import { providerFarmlandsText as m } from '../provider-farmlands.messages';
import './provider-farmlands.css';

const TILES_URL = '/api/farms/tiles/{z}/{x}/{y}.mvt';

function focusFrom(params: URLSearchParams): [number, number] | undefined {
  const lat = Number(params.get('lat'));
  const lng = Number(params.get('lng'));
  return params.get('lat') && params.get('lng') && Number.isFinite(lat) && Number.isFinite(lng) && Math.abs(lat) <= 90 && Math.abs(lng) <= 180
    ? [lng, lat]
    : undefined;
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
      aria-label={t(m.tenant)}
      showSearch={{ filterOption: false, onSearch: setText }}
      allowClear
      placeholder={t(m.allTenants)}
      className="tenant-picker"
      loading={options.isFetching}
      value={value}
      notFoundContent={t(options.isError ? m.tenantsFailed : m.noTenant)}
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
      { key: 'name', title: t(m.name), render: (r) => r.name },
      // The API names each row's tenant for provider staff (tenant_name), whichever tenant it is.
      { key: 'tenant', title: t(m.tenant), render: (r) => r.tenant_name ?? '--' },
      { key: 'farmer', title: t(m.farmer), render: (r) => r.farmer },
      { key: 'area', title: t(m.area), render: (r) => <span className="nowrap">{formatNumber(r.area, 2)}</span> },
      { key: 'operational_area', title: t(m.operationalArea), render: (r) => r.operational_area_name ?? '--' },
      { key: 'mapped_by', title: t(m.mappedBy), render: (r) => r.mapped_by ?? '--', defaultHidden: true },
      {
        key: 'updated_at',
        title: t(m.updatedAt),
        render: (r) => (
          <time dateTime={r.updated_at} className="nowrap">
            {formatDate(r.updated_at)} <span className="text-muted">{formatTime(r.updated_at)}</span>
          </time>
        ),
      },
      {
        key: 'status',
        title: t(m.status),
        render: (r) =>
          r.is_overlapping ? (
            <Tag color="green">{t(m.overlap)}</Tag>
          ) : r.flag ? (
            <Tag color="orange">{t(m.flagged)}</Tag>
          ) : (
            <Tag color="purple">{t(m.mapped)}</Tag>
          ),
      },
    ],
    [],
  );

  const o = overview.data?.data;
  const exportFilters: Record<string, string> = { ...(search ? { search } : {}), ...(tenantId ? { tenant_id: tenantId } : {}) };

  return (
    <div className="stack-16" data-testid="provider-farmlands">
      <div className="inline-12">
        <Typography.Title level={1} className="page-title">
          {t(m.title)}
        </Typography.Title>
        <div className="grow" />
        <TenantPicker value={tenantId} onChange={setTenant} />
      </div>
      {overview.isError && (
        <Alert type="error" showIcon message={t(m.overviewFailed)} action={<Button onClick={() => void overview.refetch()}>{t(m.tryAgain)}</Button>} />
      )}
      <Row gutter={[16, 16]}>
        <Col xs={12} md={8} xl={4}>
          <StatCard title={t(m.allFarms)} value={o?.total_farms} testId="total-farms" />
        </Col>
        <Col xs={12} md={8} xl={5}>
          <StatCard title={t(m.within)} value={o?.total_within_operational_area} testId="total-within" />
        </Col>
        <Col xs={12} md={8} xl={5}>
          <StatCard title={t(m.outside)} value={o?.total_outside_operational_area} testId="total-outside" />
        </Col>
        <Col xs={12} md={12} xl={5}>
          <StatCard title={t(m.overlapping)} value={o?.total_overlapping_farms} testId="total-overlapping" />
        </Col>
        <Col xs={24} md={12} xl={5}>
          <StatCard title={t(m.unrecognized)} value={o?.total_unrecognized_farms} testId="total-unrecognized" />
        </Col>
      </Row>
      <Card size="small" title={t(m.mapTitle)}>
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
          ariaLabel={t(m.mapLabel)}
          testId="provider-farm-map"
        />
        <MapLegend />
        {mapData.data?.data.truncated && (
          <Typography.Text type="warning">{t(m.truncated, { n: formatNumber(mapData.data.data.features.length) })}</Typography.Text>
        )}
        {!useTiles && mapData.isSuccess && features.length === 0 && <Typography.Text type="secondary">{t(m.noFarmsOnMap)}</Typography.Text>}
        {mapData.isError && (
          <Typography.Text type="danger">
            {t(m.mapFailed)}{' '}
            <Button size="small" onClick={() => void mapData.refetch()}>
              {t(m.tryAgain)}
            </Button>
          </Typography.Text>
        )}
      </Card>
      <ListPage<Farm>
        headingLevel={2}
        title={t(m.listTitle)}
        count={list.data?.data}
        rows={list.data?.data.results ?? []}
        rowKey={(r) => r.id}
        columns={columns}
        loading={list.isFetching && !list.data}
        error={list.isError && !list.data}
        onRetry={() => void list.refetch()}
        {...state.listProps}
        searchPlaceholder={t(m.searchPlaceholder)}
        exportName="mappings"
        exportFilters={exportFilters}
        emptyText={t(m.empty)}
        storageKey="provider-farmlands"
      />
    </div>
  );
}
