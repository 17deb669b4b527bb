// i18n: pending (texts not yet in the catalogue: docs/decisions/console-languages.md)
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
        Select farm <DownOutlined aria-hidden="true" />
      </Button>
    </Dropdown>
  );

  return (
    <SideDrawer open={Boolean(farmerId)} title="Farmer details" onClose={onClose} width={600}>
      {farmer.isLoading && <PageLoader label="Loading farmer" />}
      {farmer.isError && <Result status="warning" title="This farmer could not be loaded." extra={<Button onClick={() => void farmer.refetch()}>Try again</Button>} />}
      {f && (
        <div data-testid="farmer-drawer">
          <div style={{ display: 'flex', gap: 16, alignItems: 'center', marginBottom: 16 }}>
            <Avatar size={72} src={f.image ?? undefined} icon={<UserOutlined />} alt={f.image ? `Photo of ${f.farmer_name}` : ''} />
            <div>
              <Typography.Title level={2} className="section-title">
                {f.farmer_name}
              </Typography.Title>
              <div className="mt-4">
                <StatusTag tone={f.is_mapped ? 'good' : 'neutral'}>{f.is_mapped ? 'Mapped' : 'Unmapped'}</StatusTag>
              </div>
            </div>
          </div>
          <Descriptions
            column={1}
            size="small"
            bordered
            data-testid="farmer-profile"
            items={[
              { key: 'folio', label: "Farmer's id", children: f.folio_id || EMPTY },
              { key: 'address', label: 'Address', children: f.address || EMPTY },
              { key: 'phone', label: 'Phone', children: f.phone_number || EMPTY },
              { key: 'email', label: 'Email', children: f.email || EMPTY },
              { key: 'farms', label: 'Farms', children: `${formatNumber(f.number_of_farm)} · ${formatNumber(f.total_farm_size, 4)} sqm` },
            ]}
          />
          <div style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', marginTop: 20 }}>
            <Typography.Title level={3} style={{ fontSize: 16, margin: 0 }}>
              Mapped Farmland
            </Typography.Title>
            {selectFarm}
          </div>
          <Tabs
            activeKey={view}
            onChange={(k) => onView(k as FarmerView)}
            items={[
              {
                key: 'list',
                label: 'List Farmlands',
                children: farms.isLoading ? (
                  <PageLoader label="Loading farms" />
                ) : farms.isError ? (
                  <Result status="warning" title="The farms could not be loaded." extra={<Button onClick={() => void farms.refetch()}>Try again</Button>} />
                ) : list.length === 0 ? (
                  <Empty description="This farmer has no mapped farmland yet." />
                ) : (
                  <div style={{ display: 'grid', gap: 8 }} data-testid="farmer-farms">
                    {list.map((farm) => (
                      <Card key={farm.id} size="small" data-testid="farm-card">
                        <div style={{ display: 'flex', alignItems: 'center', gap: 12 }}>
                          <div className="grow-shrink">
                            <div className="strong">{farm.name}</div>
                            <div style={{ color: 'rgba(0,0,0,0.62)', fontSize: 13 }}>
                              {formatHectares(farm.area)} · {formatSqm(farm.area)} · {farm.operational_area_name ?? 'No operational area'}
                            </div>
                          </div>
                          {farm.is_overlapping && <StatusTag tone="neutral">Overlap</StatusTag>}
                          <Button size="small" onClick={() => onOpenFarm(farm.id)} aria-label={`View ${farm.name}`}>
                            View
                          </Button>
                        </div>
                      </Card>
                    ))}
                    {(farms.data?.data.count ?? 0) > FARMER_FARMS_LIMIT && (
                      <Typography.Text type="secondary">The first {FARMER_FARMS_LIMIT} farms are shown.</Typography.Text>
                    )}
                  </div>
                ),
              },
              {
                key: 'map',
                label: 'Map View',
                children:
                  view === 'map' ? (
                    list.length === 0 && !farms.isLoading ? (
                      <Empty description="No farmland to show on the map." />
                    ) : (
                      <LazyFarmMap
                        features={features}
                        center={centre}
                        zoom={centre ? MAP_ZOOM.farm : undefined}
                        fitToFeatures={!centre}
                        height={360}
                        testId="farmer-map"
                        ariaLabel={`Map of ${f.farmer_name}'s farms`}
                        renderPopup={(p) => (
                          <div>
                            <strong>{p.name}</strong>
                            <div>
                              <Button size="small" type="link" style={{ padding: 0 }} onClick={() => onOpenFarm(p.id)}>
                                View farm
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
