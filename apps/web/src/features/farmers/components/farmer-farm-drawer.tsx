// i18n: pending (texts not yet in the catalogue: docs/decisions/console-languages.md)
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

export function FarmerFarmDrawer({ farmerId, farmId, onBack }: { farmerId: string | null; farmId: string | null; onBack: () => void }) {
  const query = useFarmerFarm(farmerId, farmId);
  const farm = query.data?.data;
  const [showMap, setShowMap] = useState(false);
  const features = useMemo(() => (farm ? [farmToFeature(farm)] : []), [farm]);
  const points = useMemo(() => (farm ? farm.coordinates.map(([lng, lat], i) => ({ key: i, n: i + 1, lng, lat })) : []), [farm]);

  return (
    <SideDrawer open={Boolean(farmerId && farmId)} title={farm?.name ?? 'Farm'} onClose={onBack} width={560}>
      {query.isLoading && <PageLoader label="Loading farm" />}
      {query.isError && <Result status="warning" title="This farm could not be loaded." extra={<Button onClick={onBack}>Back</Button>} />}
      {farm && (
        <div data-testid="farm-drawer">
          <div style={{ display: 'flex', gap: 8, marginBottom: 12 }}>
            <Button icon={<ArrowLeftOutlined aria-hidden="true" />} onClick={onBack}>
              Back
            </Button>
            <Button onClick={() => setShowMap((v) => !v)}>{showMap ? 'Hide map' : 'View map'}</Button>
          </div>
          {showMap && (
            <div className="mb-12">
              <LazyFarmMap features={features} maxFitZoom={MAP_ZOOM.farm} height={280} testId="farm-drawer-map" ariaLabel={`Map of ${farm.name}`} />
            </div>
          )}
          <Descriptions
            column={1}
            size="small"
            bordered
            data-testid="farm-facts"
            items={[
              { key: 'farmer', label: 'Farmer', children: `${farm.farmer} (${farm.farmer_folio_id})` },
              { key: 'size', label: 'Farm size', children: formatHectares(farm.area) },
              { key: 'area', label: 'Area', children: formatSqm(farm.area) },
              { key: 'oa', label: 'Operational area', children: farm.operational_area_name ?? 'Not Available' },
              { key: 'status', label: 'Status', children: farm.is_overlapping ? 'Overlap' : 'Mapped' },
              { key: 'mapped_by', label: 'Mapped by', children: farm.mapping_record?.mapped_by ?? farm.mapped_by ?? '--' },
              { key: 'updated', label: 'Updated', children: formatDateTime(farm.updated_at) },
            ]}
          />
          <Typography.Title level={3} style={{ fontSize: 15, marginTop: 16 }}>
            Coordinate points ({points.length})
          </Typography.Title>
          <Table
            size="small"
            pagination={false}
            dataSource={points}
            scroll={{ y: 220 }}
            data-testid="farm-points"
            columns={[
              { title: '#', dataIndex: 'n', width: 48 },
              { title: 'Longitude', dataIndex: 'lng', render: (v: number) => v.toFixed(6) },
              { title: 'Latitude', dataIndex: 'lat', render: (v: number) => v.toFixed(6) },
            ]}
          />
          <Typography.Title level={3} style={{ fontSize: 15, marginTop: 16 }}>
            Snapshots
          </Typography.Title>
          {farm.snapshots.length ? (
            <Image.PreviewGroup>
              <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap' }}>
                {farm.snapshots.map((src, i) => (
                  <Image key={src} src={src} width={88} height={88} style={{ objectFit: 'cover', borderRadius: 6 }} alt={`Snapshot ${i + 1} of ${farm.name}`} />
                ))}
              </div>
            </Image.PreviewGroup>
          ) : (
            <span className="text-muted">No snapshots</span>
          )}
        </div>
      )}
    </SideDrawer>
  );
}
