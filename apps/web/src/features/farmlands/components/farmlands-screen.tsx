// /admin/mapping, "All Mapped Farmlands": search and Export Table, then three tabs: Table View (the list), Combined View
// (the map at 40% beside a list panel) and Map View (the map alone). The map shows GeoJSON up to the deployment's tile
// threshold (5,000 farms by default) and vector tiles above it; moving it writes ?lat&lng. Overlapping farms open the
// Overlapping Farmlands drawer; others the farm drawer. A Filter (region, operational area: docs/requirements.md §3's farmland query)
// narrows the table, the list panel, the map and the export alike.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useUrlParams } from '../../../lib/use-url-params';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Empty from 'antd/es/empty';
import Input from 'antd/es/input';
import List from 'antd/es/list';
import Pagination from 'antd/es/pagination';
import Tabs from 'antd/es/tabs';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import { FilterOutlined, SearchOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import type { Farm } from '@farmland/contracts';
import { loadConsoleConfig } from '../../../components/map/basemap';
import { LazyFarmMap } from '../../../components/map/lazy-map';
import { MapLegend } from '../../../components/map/map-legend';
import { MAP_ZOOM, type MapColorBy } from '../../../components/map/map-constants';
import { CountBadge } from '../../../components/ui/count-badge';
import { ExportButton } from '../../../components/ui/export-button';
import { FilterModal, type FilterField } from '../../../components/ui/filter-modal';
import { ListPage, type ListColumn } from '../../../components/ui/list-page';
import { useListState } from '../../../components/ui/use-list-state';
import { formatDate, formatNumber, formatSqm, formatTime } from '../../../lib/formatters';
import { useOperationalAreaOptions, useRegions } from '../../../lib/lookups';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { FARMS_PAGE_SIZE, useFarms } from '../api/get-farms';
import { useFarmsMap } from '../api/get-farms-map';
import { useFarmsOverview } from '../api/get-farms-overview';
import { collectionToFeatures } from '../../../components/map/farm-features';
import { EudrExportButton } from './eudr-export-button';
import { FarmDrawer } from './farm-drawer';
import { FarmPopup } from './farm-popup';
import { useAreaOutlines } from '../api/get-area-outlines';
import { OverlappingDrawer } from './overlapping-drawer';
import { queryKeys } from '../../../lib/query-keys';
import { useLatest } from '../../../lib/use-latest';
import { t } from '../../../i18n';
import { farmlandsText as m } from '../farmlands.messages';
import { Inline } from '../../../components/ui/layout';
import './farmlands.css';

const EXPORT_COLUMNS = ['name', 'farmer', 'area', 'operational_area', 'updated_at', 'status'];
// The version parameter changes whenever the farm queries are refreshed (after Retain), so MapLibre fetches new tiles.
const TILES_URL = '/api/farms/tiles/{z}/{x}/{y}.mvt';
type View = 'table' | 'combined' | 'map';
const VIEWS: readonly View[] = ['table', 'combined', 'map'];
const FARM_FILTERS = ['region', 'operational_area'] as const;

function StatusTag({ farm }: { farm: Pick<Farm, 'is_overlapping'> }) {
  return farm.is_overlapping ? <Tag color="green">{t(m.overlap)}</Tag> : <Tag color="purple">{t(m.mapped)}</Tag>;
}

export function FarmlandsScreen() {
  const [params, setParams] = useUrlParams();
  const view: View = VIEWS.includes(params.get('view') as View) ? (params.get('view') as View) : 'table';
  const state = useListState({ defaultPageSize: FARMS_PAGE_SIZE, filters: FARM_FILTERS });
  const { search, page, pageSize, filters } = state;
  const [openFarm, setOpenFarm] = useState<{ id: string; overlapping: boolean } | null>(null);
  const [focus, setFocus] = useState<[number, number] | undefined>(() => {
    const lat = Number(params.get('lat'));
    const lng = Number(params.get('lng'));
    return params.get('lat') && params.get('lng') && Number.isFinite(lat) && Number.isFinite(lng) ? [lng, lat] : undefined;
  });

  const [filterOpen, setFilterOpen] = useState(false);
  const region = typeof filters['region'] === 'string' ? filters['region'] : undefined;
  const area = typeof filters['operational_area'] === 'string' ? filters['operational_area'] : undefined;
  const regions = useRegions();
  const areas = useOperationalAreaOptions();
  const filterFields = useMemo<FilterField[]>(
    () => [
      { kind: 'select', name: 'region', label: t(m.region), options: (regions.data?.data.results ?? []).map((r) => ({ label: r.name, value: r.id })) },
      { kind: 'select', name: 'operational_area', label: t(m.operationalArea), options: (areas.data ?? []).map((a) => ({ label: a.name, value: a.id })) },
    ],
    [regions.data, areas.data],
  );
  const { query: narrowing, narrowed } = state;

  const list = useFarms({ page, page_size: pageSize, search: search || undefined, region, operational_area: area });
  const overview = useFarmsOverview();
  const config = useQuery({ queryKey: queryKeys.consoleConfig, queryFn: loadConsoleConfig, staleTime: Infinity });
  const outlines = useAreaOutlines();
  const total = overview.data?.data.total_farms;
  // Vector tiles carry every farm: a search or a filter reads the narrowed farms as GeoJSON instead.
  const useTiles = total !== undefined && config.data !== undefined && total > config.data.map_tile_threshold && !narrowed;
  const mapShown = view !== 'table';
  const mapData = useFarmsMap(narrowing, mapShown && total !== undefined && config.data !== undefined && !useTiles);
  const features = useMemo(() => collectionToFeatures(mapData.data?.data), [mapData.data]);
  // Issue 29: "Colour by EUDR risk" (the farms' stored verdicts, in the tiles and the GeoJSON alike).
  const [colorBy, setColorBy] = useState<MapColorBy>('category');

  const setView = (v: string) => {
    setParams(
      (cur) => {
        const next = new URLSearchParams(cur);
        next.set('view', v);
        return next;
      },
      { replace: true },
    );
  };
  const onMoveEnd = useCallback(
    ([lng, lat]: [number, number]) => {
      setParams(
        (cur) => {
          const next = new URLSearchParams(cur);
          next.set('lat', lat.toFixed(6));
          next.set('lng', lng.toFixed(6));
          return next;
        },
        { replace: true },
      );
    },
    [setParams],
  );
  const onSearch = state.setSearch;
  const viewDetails = (id: string, overlapping: boolean) => setOpenFarm({ id, overlapping });

  const columns = useMemo<ListColumn<Farm>[]>(
    () => [
      { key: 'name', title: t(m.name), render: (r) => r.name },
      { key: 'farmer', title: t(m.farmer), render: (r) => r.farmer },
      { key: 'area', title: t(m.areaSqm), render: (r) => <span className="nowrap">{formatNumber(r.area, 2)}</span> },
      { key: 'operational_area', title: t(m.operationalArea), render: (r) => r.operational_area_name ?? '--' },
      {
        key: 'updated_at',
        title: t(m.updatedAt),
        render: (r) => (
          <time dateTime={r.updated_at} className="nowrap">
            {formatDate(r.updated_at)} <span className="text-muted">{formatTime(r.updated_at)}</span>
          </time>
        ),
      },
      { key: 'status', title: t(m.status), render: (r) => <StatusTag farm={r} /> },
      {
        key: 'actions',
        title: '',
        exportKey: null,
        render: (r) => (
          <Button size="small" onClick={() => viewDetails(r.id, r.is_overlapping)}>
            {t(m.viewDetails)}
          </Button>
        ),
      },
    ],
    [],
  );

  const map = (height: number | string) => (
    <div>
      <LazyFarmMap
        features={useTiles ? undefined : features}
        tilesUrl={useTiles ? `${TILES_URL}?v=${overview.dataUpdatedAt}` : undefined}
        center={focus}
        zoom={focus ? MAP_ZOOM.farm : undefined}
        fitToFeatures={!focus}
        outlines={outlines.data}
        height={height}
        onMoveEnd={onMoveEnd}
        renderPopup={(f, close) => <FarmPopup feature={f} close={close} onViewDetails={viewDetails} />}
        ariaLabel={t(m.mapAria)}
        colorBy={colorBy}
      />
      <MapLegend colorBy={colorBy} onColorByChange={setColorBy} clusters={useTiles} />
      {mapData.data?.data.truncated && (
        <Typography.Text type="warning">{t(m.truncated, { count: formatNumber(mapData.data.data.features.length) })}</Typography.Text>
      )}
      {!useTiles && mapData.isSuccess && features.length === 0 && <Typography.Text type="secondary">{t(m.noFarmsOnMap)}</Typography.Text>}
      {mapData.isError && (
        <Typography.Text type="danger">
          {t(m.mapLoadFailed)}{' '}
          <Button size="small" onClick={() => void mapData.refetch()}>
            {t(m.tryAgain)}
          </Button>
        </Typography.Text>
      )}
    </div>
  );

  const header = (
    <div className="inline-12 mb-16">
      <Typography.Title level={1} className="page-title">
        {t(m.title)}
      </Typography.Title>
      <CountBadge count={list.data?.data.count} estimated={list.data?.data.count_estimated === true} label={t(m.countLabel)} />
      <div className="grow" />
      <MapSearch value={search} onSearch={onSearch} />
      <Button icon={<FilterOutlined aria-hidden="true" />} onClick={() => setFilterOpen(true)}>
        {state.activeFilters ? t(m.filterCount, { count: state.activeFilters }) : t(m.filter)}
      </Button>
      <ExportButton name="mappings" columns={EXPORT_COLUMNS} filters={narrowing} />
      <EudrExportButton />
    </div>
  );

  const sidePanel = (
    <Card size="small" title={t(m.sidePanel)} styles={{ body: { padding: 0 } }} className="full-height">
      <List<Farm>
        loading={list.isFetching && !list.data}
        dataSource={list.data?.data.results ?? []}
        locale={{ emptyText: <Empty description={t(m.noneFound)} /> }}
        renderItem={(f) => {
          const [lng, lat] = f.coordinates[0] ?? [undefined, undefined];
          return (
            <List.Item
              className="farm-list-item"
              actions={[
                <Button
                  key="map"
                  size="small"
                  type="link"
                  disabled={lng === undefined}
                  onClick={() => lng !== undefined && lat !== undefined && setFocus([lng, lat])}
                >
                  {t(m.showOnMap)}
                </Button>,
                <Button key="view" size="small" onClick={() => viewDetails(f.id, f.is_overlapping)}>
                  {t(m.viewDetails)}
                </Button>,
              ]}
            >
              <List.Item.Meta title={f.name} description={`${f.farmer} · ${formatSqm(f.area)}`} />
              <StatusTag farm={f} />
            </List.Item>
          );
        }}
      />
      <div className="farm-list-pager">
        <Pagination
          size="small"
          current={page}
          pageSize={pageSize}
          total={list.data?.data.count ?? 0}
          showSizeChanger={false}
          onChange={(p) => state.setPage(p)}
        />
      </div>
    </Card>
  );

  const overlapping = overview.data?.data.total_overlapping_farms;
  return (
    <>
      {view !== 'table' && header}
      {overlapping !== undefined && (
        <div className="mb-8" data-testid="overlap-count">
          <Tag color={overlapping ? 'green' : 'default'}>{t(m.overlappingCount, { count: formatNumber(overlapping) })}</Tag>
          <Typography.Text type="secondary">{t(m.ofMapped, { count: formatNumber(total) })}</Typography.Text>
        </div>
      )}
      <Tabs
        activeKey={view}
        onChange={setView}
        items={[
          {
            key: 'table',
            label: t(m.tableView),
            children: (
              <ListPage<Farm>
                title={t(m.title)}
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
                exportFilters={narrowing}
                onOpenFilter={() => setFilterOpen(true)}
                actions={<EudrExportButton />}
                emptyText={narrowed ? t(m.emptyFiltered) : t(m.noneFound)}
                storageKey="farmlands"
              />
            ),
          },
          {
            key: 'combined',
            label: t(m.combinedView),
            children: view === 'combined' && (
              <Inline gap={16} wrap align="stretch">
                <div className="farm-combined-map">{map(560)}</div>
                <div className="farm-combined-list">{sidePanel}</div>
              </Inline>
            ),
          },
          { key: 'map', label: t(m.mapView), children: view === 'map' && map('calc(100vh - 260px)') },
        ]}
      />
      <FilterModal open={filterOpen} fields={filterFields} value={filters} onApply={state.setFilters} onClose={() => setFilterOpen(false)} />
      <FarmDrawer farmId={openFarm && !openFarm.overlapping ? openFarm.id : null} onClose={() => setOpenFarm(null)} />
      <OverlappingDrawer farmId={openFarm?.overlapping ? openFarm.id : null} onClose={() => setOpenFarm(null)} />
    </>
  );
}

/** The header search of the map views: debounced (400 ms) like the table's; clearing it resets. */
function MapSearch({ value, onSearch }: { value: string; onSearch: (s: string) => void }) {
  const [text, setText] = useState(value);
  const debounced = useDebouncedValue(text);
  const sent = useRef(value);
  const send = useLatest(onSearch);
  useEffect(() => {
    if (debounced.trim() === sent.current) return;
    sent.current = debounced.trim();
    send.current(debounced.trim());
  }, [debounced, send]);
  return (
    <Input
      aria-label={t(m.searchAria)}
      placeholder={t(m.searchPlaceholder)}
      prefix={<SearchOutlined aria-hidden="true" />}
      allowClear
      value={text}
      onChange={(e) => setText(e.target.value)}
      className="farm-search"
    />
  );
}
