// Export table: shows 'Exporting, please wait...' and downloads {name}.csv from POST /base/export/{name}/ with the
// visible columns (column_list) and the list's current filters; or, for a list with its own export route (path, a GET
// that streams its csv, e.g. the EUDR plots needing action), from that route with the filters as its query.
import { useState } from 'react';
import Button from 'antd/es/button';
import { DownloadOutlined } from '@ant-design/icons';
import { apiDownload } from '../../lib/api-client';
import { saveBlob } from '../../lib/download';
import { notifyError, notifyInfo } from '../../lib/notifier';
import { t } from '../../i18n';
import { uiText as m } from './ui.messages';

/** The English text (tests compare with it); the toast shows it in the page's language. */
export const EXPORTING_MESSAGE = m.exporting.defaultMessage;

export async function exportTable(name: string, columns: readonly string[], filters: Record<string, string>): Promise<void> {
  const { blob, filename } = await apiDownload(
    `/base/export/${encodeURIComponent(name)}/`,
    { method: 'POST', body: { column_list: columns, ...(Object.keys(filters).length ? { filters } : {}) } },
    `${name}.csv`,
  );
  saveBlob(blob, filename);
}

/** A list's own export route: GET path?filters, the file named by the answer (else {name}.csv). */
export async function exportFrom(path: string, name: string, filters: Record<string, string>): Promise<void> {
  const { blob, filename } = await apiDownload(path, { query: filters }, `${name}.csv`);
  saveBlob(blob, filename);
}

type Props = { name: string; columns: readonly string[]; filters?: Record<string, string>; label?: string; path?: string | undefined };

export function ExportButton({ name, columns, filters = {}, label, path }: Props) {
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    notifyInfo(m.exporting, `export-${name}`);
    try {
      if (path) await exportFrom(path, name, filters);
      else await exportTable(name, columns, filters);
    } catch (err) {
      notifyError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button icon={<DownloadOutlined aria-hidden="true" />} loading={busy} onClick={() => void run()}>
      {label ?? t(m.exportTable)}
    </Button>
  );
}
