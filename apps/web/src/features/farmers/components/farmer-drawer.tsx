// The farmer drawer (/admin/farmers?farmer_id=…&view=list|map): photo, name, the folio id as "Farmer's id", address,
// phone and email ('--' when empty); 'Mapped Farmland' with the tabs 'List Farmlands' (a card per farm with View) and
// 'Map View' (the one map component, centred on ?lat&lng when given), and a 'Select farm' menu that centres the map on
// a farm. Everything it shows comes from the address, so a reload reopens it as it was.
import { useMemo } from 'react';
import Avatar from 'antd/es/avatar';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Descriptions from 'antd/es/descriptions';
import Dropdown from 'antd/es/dropdown';
import Empty from 'antd/es/empty';
import Result from 'antd/es/result';
import Tabs from 'antd/es/tabs';
import Typography from 'antd/es/typography';
import { DownOutlined, UserOutlined } from '@ant-design/icons';
import type { Farm } from '@farmland/contracts';
import { farmToFeature } from '../../../components/map/farm-feature';
import { LazyFarmMap } from '../../../components/map/lazy-map';
import { MAP_ZOOM } from '../../../components/map/map-constants';
import { PageLoader } from '../../../components/ui/page-loader';
import { SideDrawer } from '../../../components/ui/side-drawer';
import { StatusTag } from '../../../components/ui/status-tag';
import { formatHectares, formatNumber, formatSqm } from '../../../lib/formatters';
import { useFarmer } from '../api/get-farmer';
import { FARMER_FARMS_LIMIT, useFarmerFarms } from '../api/get-farmer-farms';
import { t } from '../../../i18n';
import { farmersText as m } from '../farmers.messages';
import './farmers.css';

export const EMPTY = '--';
export type FarmerView = 'list' | 'map';

/** A farm's centre for the map: the middle of its points' extent. */
export function farmCentre(farm: Pick<Farm, 'coordinates'>): [number, number] | null {
  if (farm.coordinates.length === 0) return null;
  const lngs = farm.coordinates.map((c) => c[0]);
  const lats = farm.coordinates.map((c) => c[1]);
  return [(Math.min(...lngs) + Math.max(...lngs)) / 2, (Math.min(...lats) + Math.max(...lats)) / 2];
}

type Props = {
  farmerId: string | null;
  view: FarmerView;
  centre: [number, number] | undefined;
  onView: (view: FarmerView) => void;
  onSelectFarm: (centre: [number, number]) => void;
  onOpenFarm: (farmId: string) => void;
  onClose: () => void;
};

export function FarmerDrawer({ farmerId, view, centre, onView, onSelectFarm, onOpenFarm, onClose }: Props) {
  const farmer = useFarmer(farmerId);
  const farms = useFarmerFarms(farmerId);
  const f = farmer.data?.data;
  const list = useMemo(() => farms.data?.data.results ?? [], [farms.data]);
  const features = useMemo(() => list.map(farmToFeature), [list]);

  const selectFarm = (
    <Dropdown
      trigger={['click']}
      disabled={list.length === 0}
      menu={{
        items: list.map((farm) => ({ key: farm.id, label: farm.name })),
        onClick: ({ key }) => {
          const farm = list.find((x) => x.id === key);
          const c = farm && farmCentre(farm);
          if (c) onSelectFarm(c);
        },
      }}
    >
      <Button size="small">
        {t(m.selectFarm)} <DownOutlined aria-hidden="true" />
      </Button>
    </Dropdown>
  );

  return (
    <SideDrawer open={Boolean(farmerId)} title={t(m.details)} onClose={onClose} width={600}>
      {farmer.isLoading && <PageLoader label={t(m.loading)} />}
      {farmer.isError && <Result status="warning" title={t(m.loadFailed)} extra={<Button onClick={() => void farmer.refetch()}>{t(m.tryAgain)}</Button>} />}
      {f && (
        <div data-testid="farmer-drawer">
          <div className="inline gap-16 mb-16">
            <Avatar size={72} src={f.image ?? undefined} icon={<UserOutlined />} alt={f.image ? t(m.photoOf, { name: f.farmer_name }) : ''} />
            <div>
              <Typography.Title level={2} className="section-title">
                {f.farmer_name}
              </Typography.Title>
              <div className="mt-4">
                <StatusTag tone={f.is_mapped ? 'good' : 'neutral'}>{f.is_mapped ? t(m.mapped) : t(m.unmapped)}</StatusTag>
              </div>
            </div>
          </div>
          <Descriptions
            column={1}
            size="small"
            bordered
            data-testid="farmer-profile"
            items={[
              { key: 'folio', label: t(m.farmersId), children: f.folio_id || EMPTY },
              { key: 'address', label: t(m.address), children: f.address || EMPTY },
              { key: 'phone', label: t(m.phone), children: f.phone_number || EMPTY },
              { key: 'email', label: t(m.email), children: f.email || EMPTY },
              {
                key: 'farms',
                label: t(m.farms),
                children: t(m.farmsSummary, { count: formatNumber(f.number_of_farm), area: formatNumber(f.total_farm_size, 4) }),
              },
            ]}
          />
          <div className="inline justify-between mt-20">
            <Typography.Title level={3} className="subheading m-0">
              {t(m.mappedFarmland)}
            </Typography.Title>
            {selectFarm}
          </div>
          <Tabs
            activeKey={view}
            onChange={(k) => onView(k as FarmerView)}
            items={[
              {
                key: 'list',
                label: t(m.listFarmlands),
                children: farms.isLoading ? (
                  <PageLoader label={t(m.loadingFarms)} />
                ) : farms.isError ? (
                  <Result status="warning" title={t(m.farmsLoadFailed)} extra={<Button onClick={() => void farms.refetch()}>{t(m.tryAgain)}</Button>} />
                ) : list.length === 0 ? (
                  <Empty description={t(m.noFarmland)} />
                ) : (
                  <div className="grid-list" data-testid="farmer-farms">
                    {list.map((farm) => (
                      <Card key={farm.id} size="small" data-testid="farm-card">
                        <div className="inline gap-12">
                          <div className="grow-shrink">
                            <div className="strong">{farm.name}</div>
                            <div className="farm-card-meta">
                              {formatHectares(farm.area)} · {formatSqm(farm.area)} · {farm.operational_area_name ?? t(m.noOperationalArea)}
                            </div>
                          </div>
                          {farm.is_overlapping && <StatusTag tone="neutral">{t(m.overlap)}</StatusTag>}
                          <Button size="small" onClick={() => onOpenFarm(farm.id)} aria-label={t(m.viewFarmNamed, { name: farm.name })}>
                            {t(m.view)}
                          </Button>
                        </div>
                      </Card>
                    ))}
                    {(farms.data?.data.count ?? 0) > FARMER_FARMS_LIMIT && (
                      <Typography.Text type="secondary">{t(m.firstFarmsShown, { count: FARMER_FARMS_LIMIT })}</Typography.Text>
                    )}
                  </div>
                ),
              },
              {
                key: 'map',
                label: t(m.mapView),
                children:
                  view === 'map' ? (
                    list.length === 0 && !farms.isLoading ? (
                      <Empty description={t(m.noFarmlandOnMap)} />
                    ) : (
                      <LazyFarmMap
                        features={features}
                        center={centre}
                        zoom={centre ? MAP_ZOOM.farm : undefined}
                        fitToFeatures={!centre}
                        height={360}
                        testId="farmer-map"
                        ariaLabel={t(m.mapOfFarms, { name: f.farmer_name })}
                        renderPopup={(p) => (
                          <div>
                            <strong>{p.name}</strong>
                            <div>
                              <Button size="small" type="link" className="flush" onClick={() => onOpenFarm(p.id)}>
                                {t(m.viewFarm)}
                              </Button>
                            </div>
                          </div>
                        )}
                      />
                    )
                  ) : null,
              },
            ]}
          />
        </div>
      )}
    </SideDrawer>
  );
}
