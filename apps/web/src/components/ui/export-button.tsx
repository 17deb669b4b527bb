// Export table: shows 'Exporting, please wait...' and downloads {name}.csv from POST /base/export/{name}/ with the
// visible columns (column_list) and the list's current filters.
import { useState } from 'react';
import Button from 'antd/es/button';
import { DownloadOutlined } from '@ant-design/icons';
import { apiDownload } from '../../lib/api-client';
import { saveBlob } from '../../lib/download';
import { notifyError, notifyInfo } from '../../lib/notifier';

export const EXPORTING_MESSAGE = 'Exporting, please wait...';

export async function exportTable(name: string, columns: readonly string[], filters: Record<string, string>): Promise<void> {
  const { blob, filename } = await apiDownload(
    `/base/export/${encodeURIComponent(name)}/`,
    { method: 'POST', body: { column_list: columns, ...(Object.keys(filters).length ? { filters } : {}) } },
    `${name}.csv`,
  );
  saveBlob(blob, filename);
}

type Props = { name: string; columns: readonly string[]; filters?: Record<string, string>; label?: string };

export function ExportButton({ name, columns, filters = {}, label = 'Export table' }: Props) {
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    notifyInfo(EXPORTING_MESSAGE, `export-${name}`);
    try {
      await exportTable(name, columns, filters);
    } catch (err) {
      notifyError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button icon={<DownloadOutlined aria-hidden="true" />} loading={busy} onClick={() => void run()}>
      {label}
    </Button>
  );
}
