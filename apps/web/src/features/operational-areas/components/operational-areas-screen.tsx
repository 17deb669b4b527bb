// /admin/operational-areas: every area on a map (40%) beside the list: search (submitted with text; clearing resets),
// region filter, pagination (10 a page), edit and delete per row; "Create Area" opens the two-step drawing modal and
// "Create Region" the region modal.
import { useMemo, useState } from 'react';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Dropdown from 'antd/es/dropdown';
import Empty from 'antd/es/empty';
import Input from 'antd/es/input';
import List from 'antd/es/list';
import Pagination from 'antd/es/pagination';
import Result from 'antd/es/result';
import Select from 'antd/es/select';
import Typography from 'antd/es/typography';
import { MoreOutlined, PlusOutlined } from '@ant-design/icons';
import type { OperationalArea } from '@farmland/contracts';
import { LazyFarmMap } from '../../../components/map/lazy-map';
import type { MapFeature } from '../../../components/map/map-constants';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { CountBadge } from '../../../components/ui/count-badge';
import { useListState } from '../../../components/ui/use-list-state';
import { formatNumber, formatSqm } from '../../../lib/formatters';
import { notifySuccess } from '../../../lib/notifier';
import { useDeleteOperationalArea } from '../api/delete-operational-area';
import { AREAS_PAGE_SIZE, useAllOperationalAreas, useOperationalAreas } from '../api/get-operational-areas';
import { useRegions } from '../../../lib/lookups';
import { AreaModal } from './area-modal';
import { CreateRegionModal } from './create-region-modal';
import { t } from '../../../i18n';
import { operationalAreasText as m } from '../operational-areas.messages';
import './operational-areas.css';

const toFeature = (a: OperationalArea): MapFeature => ({
  id: a.id,
  name: a.name,
  category: 'within',
  rings: [a.coordinates],
  properties: { address: a.address, farm_count: a.farm_count, area: a.area_sqm },
});

export function OperationalAreasScreen() {
  const state = useListState({ defaultPageSize: AREAS_PAGE_SIZE, filters: ['region'] });
  const { search, page } = state;
  const region = typeof state.filters['region'] === 'string' ? state.filters['region'] : undefined;
  const [text, setText] = useState(search);
  const [editing, setEditing] = useState<{ area: OperationalArea | null } | null>(null);
  const [regionOpen, setRegionOpen] = useState(false);
  const [deleting, setDeleting] = useState<OperationalArea | null>(null);
  const [focus, setFocus] = useState<[number, number] | undefined>(undefined);
  const list = useOperationalAreas({ page, page_size: AREAS_PAGE_SIZE, search: search || undefined, region });
  const all = useAllOperationalAreas();
  const regions = useRegions();
  const remove = useDeleteOperationalArea();
  const features = useMemo(() => (all.data ?? []).map(toFeature), [all.data]);
  const others = useMemo(() => features.filter((f) => f.id !== editing?.area?.id), [features, editing]);

  const confirmDelete = async () => {
    if (!deleting) return;
    await remove.mutateAsync(deleting.id);
    notifySuccess(t(m.deleted));
    setDeleting(null);
  };

  return (
    <section aria-labelledby="oa-title">
      <div className="inline-12 mb-16">
        <Typography.Title level={1} id="oa-title" className="page-title">
          {t(m.title)}
        </Typography.Title>
        <CountBadge count={list.data?.data.count} label={t(m.countLabel)} />
        <div className="grow" />
        <Button onClick={() => setRegionOpen(true)}>{t(m.createRegion)}</Button>
        <Button type="primary" icon={<PlusOutlined aria-hidden="true" />} onClick={() => setEditing({ area: null })}>
          {t(m.createArea)}
        </Button>
      </div>
      <div className="inline gap-16 wrap align-start">
        <div className="areas-map">
          <LazyFarmMap
            features={features}
            markers={false}
            center={focus}
            height={560}
            ariaLabel={t(m.mapAria)}
            renderPopup={(f) => (
              <div>
                <strong>{f.name}</strong>
                <div>{String(f.properties['address'] ?? '')}</div>
                <div>{t(m.farmCount, { count: formatNumber(Number(f.properties['farm_count'])) })}</div>
              </div>
            )}
          />
        </div>
        <Card className="areas-list" styles={{ body: { padding: 16 } }}>
          <div className="inline gap-12 wrap align-stretch mb-12">
            <Input.Search
              aria-label={t(m.searchPlaceholder)}
              placeholder={t(m.searchPlaceholder)}
              allowClear
              value={text}
              onChange={(e) => {
                setText(e.target.value);
                if (!e.target.value) state.setSearch('');
              }}
              onSearch={(v) => {
                if (!v.trim()) return;
                state.setSearch(v.trim());
              }}
              className="areas-search"
            />
            <Select
              aria-label={t(m.filterByRegion)}
              placeholder={t(m.allRegions)}
              allowClear
              value={region}
              onChange={(v: string | undefined) => state.setFilters({ region: v })}
              options={(regions.data?.data.results ?? []).map((r) => ({ value: r.id, label: r.name }))}
              className="areas-region"
            />
          </div>
          {list.isError && !list.data ? (
            <Result status="warning" title={t(m.loadFailed)} extra={<Button onClick={() => void list.refetch()}>{t(m.tryAgain)}</Button>} />
          ) : (
            <List<OperationalArea>
              loading={list.isFetching && !list.data}
              dataSource={list.data?.data.results ?? []}
              locale={{ emptyText: <Empty description={search || region ? t(m.noMatch) : t(m.noneYet)} /> }}
              renderItem={(a) => (
                <List.Item
                  data-testid="area-row"
                  actions={[
                    <Button key="map" type="link" size="small" onClick={() => a.coordinates[0] && setFocus(a.coordinates[0])}>
                      {t(m.showOnMap)}
                    </Button>,
                    <Dropdown
                      key="menu"
                      trigger={['click']}
                      menu={{
                        items: [
                          { key: 'edit', label: t(m.editArea), onClick: () => setEditing({ area: a }) },
                          { key: 'delete', label: t(m.deleteArea), danger: true, onClick: () => setDeleting(a) },
                        ],
                      }}
                    >
                      <Button type="text" size="small" icon={<MoreOutlined aria-hidden="true" />} aria-label={t(m.actionsFor, { name: a.name })} />
                    </Dropdown>,
                  ]}
                >
                  {/* Not List.Item.Meta: its title is an h4, which would skip heading levels under the page's h1. */}
                  <div className="grow-shrink">
                    <div className="area-name">{a.label || a.name}</div>
                    <div className="text-muted wrap-anywhere">
                      {t(m.rowSummary, { address: a.address, region: a.region, count: formatNumber(a.farm_count), area: formatSqm(a.area_sqm) })}
                    </div>
                  </div>
                </List.Item>
              )}
            />
          )}
          <div className="inline align-stretch justify-end mt-12">
            <Pagination
              current={page}
              pageSize={AREAS_PAGE_SIZE}
              total={list.data?.data.count ?? 0}
              showSizeChanger={false}
              onChange={(p) => state.setPage(p)}
              hideOnSinglePage={false}
            />
          </div>
        </Card>
      </div>
      <AreaModal open={Boolean(editing)} area={editing?.area ?? null} others={others} onClose={() => setEditing(null)} />
      <CreateRegionModal open={regionOpen} onClose={() => setRegionOpen(false)} />
      <ConfirmDialog
        open={Boolean(deleting)}
        title={t(m.deleteArea)}
        danger
        confirmLabel={t(m.delete)}
        loading={remove.isPending}
        onConfirm={() => void confirmDelete().catch(() => undefined)}
        onCancel={() => setDeleting(null)}
      >
        {t(m.deleteQuestion)}
      </ConfirmDialog>
    </section>
  );
}
