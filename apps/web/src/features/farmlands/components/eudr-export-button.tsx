// i18n: pending (texts not yet in the catalogue: docs/decisions/console-languages.md)
// "Export GeoJSON" (EUDR-ready, beyond the spec): format GeoJSON, CSV or KML, and optionally farms under 4 ha as
// points (their centroid), as the EU deforestation regulation allows. Large files arrive in numbered parts.
import { useState } from 'react';
import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Modal from 'antd/es/modal';
import Radio from 'antd/es/radio';
import Typography from 'antd/es/typography';
import { GlobalOutlined } from '@ant-design/icons';
import { notifyError, notifyInfo, notifySuccess } from '../../../lib/notifier';
import { exportEudr, type EudrFormat, type EudrVerdicts } from '../api/export-eudr';
import { geolocationChecksText as geo } from '../../../components/eudr/geolocation-checks.messages';
import { t } from '../../../i18n';

export function EudrExportButton() {
  const [open, setOpen] = useState(false);
  const [format, setFormat] = useState<EudrFormat>('geojson');
  const [points, setPoints] = useState(false);
  const [verdicts, setVerdicts] = useState<EudrVerdicts>('properties');
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    notifyInfo('Exporting, please wait...', 'export-eudr');
    try {
      const parts = await exportEudr(format, points, verdicts);
      notifySuccess(parts > 1 ? `Exported in ${parts} parts` : 'Export ready');
      setOpen(false);
    } catch (err) {
      notifyError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button icon={<GlobalOutlined aria-hidden="true" />} onClick={() => setOpen(true)}>
        Export GeoJSON
      </Button>
      <Modal open={open} title="Export for EUDR" okText="Download" onOk={() => void run()} okButtonProps={{ loading: busy }} onCancel={() => setOpen(false)} destroyOnHidden>
        <Typography.Paragraph type="secondary">
          Every farm's boundary in WGS84 (EPSG:4326, 6 decimals) with its id, farmer, area in hectares and country. Files over 25 MB are split into numbered parts.
        </Typography.Paragraph>
        <Radio.Group
          value={format}
          onChange={(e) => setFormat(e.target.value as EudrFormat)}
          options={[
            { value: 'geojson', label: 'GeoJSON' },
            { value: 'csv', label: 'CSV' },
            { value: 'kml', label: 'KML' },
          ]}
          optionType="button"
        />
        <div className="mt-16">
          <Checkbox checked={points} onChange={(e) => setPoints(e.target.checked)}>
            Farms under 4 ha as points (their centroid)
          </Checkbox>
        </div>
        <div className="mt-16" role="group" aria-label={t(geo.verdictsWhere)}>
          <Typography.Text>{t(geo.verdictsWhere)}</Typography.Text>
          <Radio.Group
            value={verdicts}
            onChange={(e) => setVerdicts(e.target.value as EudrVerdicts)}
            options={[
              { value: 'properties', label: t(geo.verdictsAsProperties) },
              { value: 'companion', label: t(geo.verdictsAsCompanion) },
            ]}
          />
        </div>
      </Modal>
    </>
  );
}
