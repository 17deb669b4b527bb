// 'Export CSV' and 'Export GeoJSON' for one category of an analysis's results.
import { useState } from 'react';
import { DownloadOutlined } from '@ant-design/icons';
import Button from 'antd/es/button';
import Space from 'antd/es/space';
import type { AnalysisListKind } from '@farmland/contracts';
import { notifyError, notifyInfo } from '../../../lib/notifier';
import { exportCategory } from '../api/export-category';
import { t } from '../../../i18n';
import { analysesText as m } from '../analyses.messages';

export function CategoryExportButtons({ analysisId, category }: { analysisId: string; category: AnalysisListKind }) {
  const [busy, setBusy] = useState<'csv' | 'geojson' | null>(null);
  const run = async (format: 'csv' | 'geojson') => {
    setBusy(format);
    notifyInfo(t(m.exporting), `export-${category}`);
    try {
      await exportCategory(analysisId, category, format);
    } catch (err) {
      notifyError(err);
    } finally {
      setBusy(null);
    }
  };
  return (
    <Space>
      <Button size="small" icon={<DownloadOutlined />} loading={busy === 'csv'} onClick={() => void run('csv')}>
        {t(m.exportCsv)}
      </Button>
      <Button size="small" icon={<DownloadOutlined />} loading={busy === 'geojson'} onClick={() => void run('geojson')}>
        {t(m.exportGeojson)}
      </Button>
    </Space>
  );
}
