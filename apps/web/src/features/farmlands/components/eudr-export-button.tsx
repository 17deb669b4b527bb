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
import { farmlandsText as m } from '../farmlands.messages';

export function EudrExportButton() {
  const [open, setOpen] = useState(false);
  const [format, setFormat] = useState<EudrFormat>('geojson');
  const [points, setPoints] = useState(false);
  const [verdicts, setVerdicts] = useState<EudrVerdicts>('properties');
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    notifyInfo(t(m.exporting), 'export-eudr');
    try {
      const parts = await exportEudr(format, points, verdicts);
      notifySuccess(parts > 1 ? t(m.exportedParts, { count: parts }) : t(m.exportReady));
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
        {t(m.exportGeojson)}
      </Button>
      <Modal
        open={open}
        title={t(m.exportTitle)}
        okText={t(m.download)}
        onOk={() => void run()}
        okButtonProps={{ loading: busy }}
        onCancel={() => setOpen(false)}
        destroyOnHidden
      >
        <Typography.Paragraph type="secondary">{t(m.exportExplained)}</Typography.Paragraph>
        <Radio.Group
          value={format}
          onChange={(e) => setFormat(e.target.value as EudrFormat)}
          options={[
            { value: 'geojson', label: t(m.formatGeojson) },
            { value: 'csv', label: t(m.formatCsv) },
            { value: 'kml', label: t(m.formatKml) },
          ]}
          optionType="button"
        />
        <div className="mt-16">
          <Checkbox checked={points} onChange={(e) => setPoints(e.target.checked)}>
            {t(m.asPoints)}
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
