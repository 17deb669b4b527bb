// The farm drawer opened from the farmer drawer (?farm_id=…): 'Back' to the farmer, 'View map' (the farm at zoom 18),
// the coordinate points (longitude, latitude), size (ha) and area (sqm), and the snapshots.
import { useMemo, useState } from 'react';
import Button from 'antd/es/button';
import Descriptions from 'antd/es/descriptions';
import Image from 'antd/es/image';
import Result from 'antd/es/result';
import Table from 'antd/es/table';
import Typography from 'antd/es/typography';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { farmToFeature } from '../../../components/map/farm-feature';
import { LazyFarmMap } from '../../../components/map/lazy-map';
import { MAP_ZOOM } from '../../../components/map/map-constants';
import { PageLoader } from '../../../components/ui/page-loader';
import { SideDrawer } from '../../../components/ui/side-drawer';
import { formatDateTime, formatHectares, formatSqm } from '../../../lib/formatters';
import { useFarmerFarm } from '../api/get-farmer-farm';
import { t } from '../../../i18n';
import { farmersText as m } from '../farmers.messages';
import './farmers.css';

export function FarmerFarmDrawer({ farmerId, farmId, onBack }: { farmerId: string | null; farmId: string | null; onBack: () => void }) {
  const query = useFarmerFarm(farmerId, farmId);
  const farm = query.data?.data;
  const [showMap, setShowMap] = useState(false);
  const features = useMemo(() => (farm ? [farmToFeature(farm)] : []), [farm]);
  const points = useMemo(() => (farm ? farm.coordinates.map(([lng, lat], i) => ({ key: i, n: i + 1, lng, lat })) : []), [farm]);

  return (
    <SideDrawer open={Boolean(farmerId && farmId)} title={farm?.name ?? t(m.farm)} onClose={onBack} width={560}>
      {query.isLoading && <PageLoader label={t(m.loadingFarm)} />}
      {query.isError && <Result status="warning" title={t(m.farmLoadFailed)} extra={<Button onClick={onBack}>{t(m.back)}</Button>} />}
      {farm && (
        <div data-testid="farm-drawer">
          <div className="inline align-stretch gap-8 mb-12">
            <Button icon={<ArrowLeftOutlined aria-hidden="true" />} onClick={onBack}>
              {t(m.back)}
            </Button>
            <Button onClick={() => setShowMap((v) => !v)}>{showMap ? t(m.hideMap) : t(m.viewMap)}</Button>
          </div>
          {showMap && (
            <div className="mb-12">
              <LazyFarmMap features={features} maxFitZoom={MAP_ZOOM.farm} height={280} testId="farm-drawer-map" ariaLabel={t(m.mapOf, { name: farm.name })} />
            </div>
          )}
          <Descriptions
            column={1}
            size="small"
            bordered
            data-testid="farm-facts"
            items={[
              { key: 'farmer', label: t(m.farmer), children: `${farm.farmer} (${farm.farmer_folio_id})` },
              { key: 'size', label: t(m.farmSize), children: formatHectares(farm.area) },
              { key: 'area', label: t(m.area), children: formatSqm(farm.area) },
              { key: 'oa', label: t(m.operationalArea), children: farm.operational_area_name ?? t(m.notAvailable) },
              { key: 'status', label: t(m.status), children: farm.is_overlapping ? t(m.overlap) : t(m.mapped) },
              { key: 'mapped_by', label: t(m.mappedBy), children: farm.mapping_record?.mapped_by ?? farm.mapped_by ?? '--' },
              { key: 'updated', label: t(m.updated), children: formatDateTime(farm.updated_at) },
            ]}
          />
          <Typography.Title level={3} className="farm-subheading">
            {t(m.coordinatePoints, { count: points.length })}
          </Typography.Title>
          <Table
            size="small"
            pagination={false}
            dataSource={points}
            scroll={{ y: 220 }}
            data-testid="farm-points"
            columns={[
              { title: '#', dataIndex: 'n', width: 48 },
              { title: t(m.longitude), dataIndex: 'lng', render: (v: number) => v.toFixed(6) },
              { title: t(m.latitude), dataIndex: 'lat', render: (v: number) => v.toFixed(6) },
            ]}
          />
          <Typography.Title level={3} className="farm-subheading">
            {t(m.snapshots)}
          </Typography.Title>
          {farm.snapshots.length ? (
            <Image.PreviewGroup>
              <div className="inline align-stretch gap-8 wrap">
                {farm.snapshots.map((src, i) => (
                  <Image
                    key={src}
                    src={src}
                    width={88}
                    height={88}
                    classNames={{ image: 'farm-snapshot' }}
                    alt={t(m.snapshotOf, { n: i + 1, name: farm.name })}
                  />
                ))}
              </div>
            </Image.PreviewGroup>
          ) : (
            <span className="text-muted">{t(m.noSnapshots)}</span>
          )}
        </div>
      )}
    </SideDrawer>
  );
}
