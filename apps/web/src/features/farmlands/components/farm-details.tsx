// One farm's details, shared by the farm drawer and the Overlapping Farmlands drawer: farmer, size in sqm and ha,
// declared area and point plot centre (when given), operational area ('Not Available' when none), the mapping record (duration as "hr, m, s"), coordinates and snapshots.
import Collapse from 'antd/es/collapse';
import Descriptions from 'antd/es/descriptions';
import Image from 'antd/es/image';
import Table from 'antd/es/table';
import type { Farm } from '@farmland/contracts';
import { formatDateTime, formatDuration, formatHectares, formatSqm } from '../../../lib/formatters';
import { t } from '../../../i18n';
import { farmlandsText as m } from '../farmlands.messages';
import { Inline } from '../../../components/ui/layout';
import './farmlands.css';

export function CoordinateTable({ coordinates }: { coordinates: readonly (readonly [number, number])[] }) {
  const rows = coordinates.map(([lng, lat], i) => ({ key: i, n: i + 1, lng, lat }));
  return (
    <Table
      size="small"
      pagination={false}
      dataSource={rows}
      scroll={{ y: 220 }}
      columns={[
        { title: '#', dataIndex: 'n', width: 48 },
        { title: t(m.longitude), dataIndex: 'lng', render: (v: number) => v.toFixed(6) },
        { title: t(m.latitude), dataIndex: 'lat', render: (v: number) => v.toFixed(6) },
      ]}
    />
  );
}

export function FarmDetails({ farm, withCoordinates = true }: { farm: Farm; withCoordinates?: boolean }) {
  const mr = farm.mapping_record;
  return (
    <div data-testid="farm-details">
      <Descriptions
        column={1}
        size="small"
        bordered
        items={[
          { key: 'farmer', label: t(m.farmer), children: `${farm.farmer} (${farm.farmer_folio_id})` },
          { key: 'size', label: t(m.farmSize), children: formatHectares(farm.area) },
          { key: 'area', label: t(m.area), children: formatSqm(farm.area) },
          // A point plot (4 ha or less: its centre and declared area), or any capture that declared an area.
          ...(farm.declared_area_sqm !== null && farm.declared_area_sqm !== undefined
            ? [{ key: 'declared', label: t(m.declaredArea), children: `${formatHectares(farm.declared_area_sqm)} (${formatSqm(farm.declared_area_sqm)})` }]
            : []),
          ...(farm.point
            ? [{ key: 'point', label: t(m.pointCentre), children: t(m.pointCentreValue, { lat: farm.point[1].toFixed(6), lng: farm.point[0].toFixed(6) }) }]
            : []),
          { key: 'oa', label: t(m.operationalArea), children: farm.operational_area_name ?? t(m.notAvailable) },
          { key: 'status', label: t(m.status), children: farm.is_overlapping ? t(m.overlap) : t(m.mapped) },
          { key: 'mapped_by', label: t(m.mappedBy), children: mr?.mapped_by ?? farm.mapped_by ?? '--' },
          { key: 'time', label: t(m.timeTaken), children: formatDuration(mr?.time_taken_to_map) },
          { key: 'device', label: t(m.gpsDevice), children: mr?.gps_device_id ?? '--' },
          { key: 'location', label: t(m.location), children: mr?.location ?? farm.location ?? '--' },
          { key: 'region', label: t(m.region), children: mr?.region ?? '--' },
          { key: 'updated', label: t(m.updated), children: formatDateTime(farm.updated_at) },
        ]}
      />
      {withCoordinates && (
        <Collapse
          size="small"
          className="mt-12"
          items={[
            { key: 'pts', label: t(m.coordinatePoints, { count: farm.coordinates.length }), children: <CoordinateTable coordinates={farm.coordinates} /> },
          ]}
        />
      )}
      <div className="mt-12">
        <div className="strong mb-6">{t(m.snapshots)}</div>
        {farm.snapshots.length ? (
          <Image.PreviewGroup>
            <Inline gap={8} wrap align="stretch">
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
            </Inline>
          </Image.PreviewGroup>
        ) : (
          <span className="farm-no-snapshots">{t(m.noSnapshots)}</span>
        )}
      </div>
    </div>
  );
}
