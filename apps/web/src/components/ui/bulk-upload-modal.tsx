// The one bulk-upload modal (farmers and agents): the drop zone with the upload limits and the template download; then,
// when rows fail, an editable table of only the columns needed for creation, each failed cell's first error on hover and
// a green tick on valid cells. The user fixes cells and sends only the fixed rows, without a new file: the browser builds
// a csv of them and posts it to the same endpoint, so they pass exactly the same checks. When nothing is left to fix,
// 'Bulk upload successful' shows and the modal closes.
import { useMemo, useState } from 'react';
import { CheckCircleFilled, DownloadOutlined, InfoCircleOutlined } from '@ant-design/icons';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import Table from 'antd/es/table';
import Tooltip from 'antd/es/tooltip';
import type { BulkUploadResult, FailedRow } from '@farmland/contracts';
import { api, apiDownload } from '../../lib/api-client';
import type { Envelope } from '../../lib/contract-types';
import { saveBlob } from '../../lib/download';
import { formatNumber } from '../../lib/formatters';
import { notifyError, notifySuccess } from '../../lib/notifier';
import { afterResubmit, cellValue, discardWarning, firstError, fixedRows, otherErrors, rowsToCsv, type RowEdits } from './bulk-upload-rows';
import { ConfirmDialog } from './confirm-dialog';
import { UploadZone } from './upload-zone';
import { t } from '../../i18n';
import { uiText as m } from './ui.messages';

export const BULK_UPLOAD_ACCEPT = ['.csv', '.xls', '.xlsx'] as const;
/** Spec §5, §9: the drop zone enforces 3,145,728 bytes. */
export const BULK_UPLOAD_MAX_BYTES = 3_145_728;
/** The English texts (tests compare with them); the console shows them in the page's language. */
export const BULK_UPLOAD_SUCCESS = m.bulkUploadSuccess.defaultMessage;
export const FAILED_ROWS_INSTRUCTION = m.failedRowsInstruction.defaultMessage;

type Props = {
  open: boolean;
  title: string;
  /** POST endpoint taking one file in the multipart field "file"; answers data.failed_rows. */
  endpoint: string;
  template: { path: string; filename: string };
  /** The columns needed for creation: the only ones the correction table shows and edits. */
  columns: readonly string[];
  /** A quick check of an edited cell in the browser; the API checks again and is the authority. */
  validateCell?: (column: string, value: string) => string | undefined;
  /** Called after every upload that created rows (the page refreshes its list and counts). */
  onCreated: () => void;
  onClose: () => void;
  testId?: string;
};

const humanize = (c: string) => c.replace(/_/g, ' ');

export function BulkUploadModal({ open, title, endpoint, template, columns, validateCell, onCreated, onClose, testId = 'bulk-upload' }: Props) {
  const [file, setFile] = useState<File | null>(null);
  const [failed, setFailed] = useState<FailedRow[] | null>(null);
  const [edits, setEdits] = useState<RowEdits>({});
  const [created, setCreated] = useState(0);
  const [busy, setBusy] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const [askDiscard, setAskDiscard] = useState(false);
  const fixed = useMemo(() => (failed ? fixedRows(failed, edits) : []), [failed, edits]);
  const discard = useMemo(() => discardWarning(failed, edits), [failed, edits]);

  const reset = () => {
    setFile(null);
    setFailed(null);
    setEdits({});
    setCreated(0);
  };
  const closeNow = () => {
    setAskDiscard(false);
    reset();
    onClose();
  };
  // Failed rows left in the table were never created: closing (Close, the ×, Escape, the mask) asks first.
  const close = () => {
    if (busy) return;
    if (discard) return setAskDiscard(true);
    closeNow();
  };

  const post = async (body: File): Promise<BulkUploadResult | null> => {
    const form = new FormData();
    form.append('file', body, body.name);
    setBusy(true);
    try {
      const res = await api<Envelope<BulkUploadResult>>(endpoint, { method: 'POST', form });
      if (res.data.created_count > 0) onCreated();
      return res.data;
    } catch (err) {
      notifyError(err);
      return null;
    } finally {
      setBusy(false);
    }
  };

  const finish = () => {
    notifySuccess(m.bulkUploadSuccess);
    reset();
    onClose();
  };

  const upload = async () => {
    if (!file) return;
    const result = await post(file);
    if (!result) return;
    if (result.failed_rows.length === 0) return finish();
    setCreated(result.created_count);
    setFailed(result.failed_rows);
    setEdits({});
  };

  const resubmit = async () => {
    if (!failed || fixed.length === 0) return;
    const csv = rowsToCsv(fixed, columns, edits);
    const result = await post(new File([csv], 'fixed-rows.csv', { type: 'text/csv' }));
    if (!result) return;
    const remaining = afterResubmit(failed, fixed, result);
    setCreated((n) => n + result.created_count);
    if (remaining.length === 0) return finish();
    setFailed(remaining);
    // Edits of rows that failed again are now their cells; edits of rows not sent stay.
    setEdits((all) => Object.fromEntries(Object.entries(all).filter(([n]) => !fixed.some((r) => r.row === Number(n)))));
  };

  const downloadTemplate = async () => {
    setDownloading(true);
    try {
      const { blob, filename } = await apiDownload(template.path, { session: false }, template.filename);
      saveBlob(blob, filename);
    } catch (err) {
      notifyError(err);
    } finally {
      setDownloading(false);
    }
  };

  // Cells are named for a screen reader by the row the user sees (issue 33): "File row 3 email", not the internal number.
  const cell = (column: string) => (_: unknown, r: FailedRow) => {
    const edited = edits[r.row]?.[column];
    const value = cellValue(r, column, edits);
    const changed = edited !== undefined && edited !== (r.row_data[column] ?? '');
    const problem = changed ? validateCell?.(column, value) : firstError(r, column);
    return (
      <div className={column === 'farm_coordinates' ? 'cell-status cell-wide' : 'cell-status cell-narrow'}>
        <Input
          size="small"
          aria-label={t(m.fileRowCell, { row: r.row + 1, column })}
          value={value}
          status={problem ? 'error' : undefined}
          onChange={(e) => setEdits((all) => ({ ...all, [r.row]: { ...all[r.row], [column]: e.target.value } }))}
        />
        {problem ? (
          <Tooltip title={problem}>
            <InfoCircleOutlined role="img" aria-label={t(m.fileRowWhy, { row: r.row + 1, column })} data-error={problem} className="text-bad help-cursor" />
          </Tooltip>
        ) : (
          <CheckCircleFilled role="img" aria-label={t(m.fileRowValid, { row: r.row + 1, column })} className="text-ok" />
        )}
      </div>
    );
  };

  const anyOther = failed?.some((r) => otherErrors(r, columns).length > 0) ?? false;

  const footer = failed
    ? [
        <Button key="close" onClick={close} disabled={busy}>
          {t(m.close)}
        </Button>,
        <Button key="send" type="primary" disabled={fixed.length === 0} loading={busy} onClick={() => void resubmit()}>
          {fixed.length > 0 ? t(m.submitFixedCount, { count: fixed.length }) : t(m.submitFixed)}
        </Button>,
      ]
    : [
        <Button
          key="template"
          icon={<DownloadOutlined aria-hidden="true" />}
          loading={downloading}
          onClick={() => void downloadTemplate()}
          className="float-start"
        >
          {t(m.downloadTemplate)}
        </Button>,
        <Button key="cancel" onClick={close} disabled={busy}>
          {t(m.cancel)}
        </Button>,
        <Button key="upload" type="primary" disabled={!file} loading={busy} onClick={() => void upload()}>
          {t(m.upload)}
        </Button>,
      ];

  return (
    <Modal
      open={open}
      title={failed ? t(m.failedRowsTitle, { title }) : title}
      onCancel={close}
      width={failed ? 'min(1400px, 96vw)' : 560}
      footer={footer}
      destroyOnHidden
      mask={{ closable: !busy }}
    >
      <div data-testid={testId}>
        {failed ? (
          <>
            <p>{t(m.failedRowsInstruction)}</p>
            <Alert
              type="warning"
              showIcon
              className="mb-12"
              data-testid={`${testId}-summary`}
              title={t(m.createdSoFar, { created: formatNumber(created), failed: formatNumber(failed.length), count: failed.length })}
            />
            <div className="fill-max">
              <Table<FailedRow>
                size="small"
                scroll={{ x: 'max-content' }}
                rowKey={(r) => r.row}
                dataSource={failed}
                pagination={{ pageSize: 10, showSizeChanger: false, hideOnSinglePage: true }}
                data-testid={`${testId}-failed-rows`}
                columns={[
                  // The row of the user's file: the header is file row 1, so data row n is file row n + 1 (issue 33).
                  {
                    key: 'row',
                    title: <Tooltip title={t(m.fileRowHelp)}>{t(m.fileRow)}</Tooltip>,
                    width: 72,
                    fixed: 'left' as const,
                    render: (_: unknown, r: FailedRow) => <span data-testid="file-row">{formatNumber(r.row + 1)}</span>,
                  },
                  // The template's column names, as in the file.
                  ...columns.map((c) => ({ key: c, title: <span translate="no">{humanize(c)}</span>, render: cell(c) })),
                  ...(anyOther
                    ? [{ key: 'other', title: t(m.otherProblems), render: (_: unknown, r: FailedRow) => otherErrors(r, columns).join('; ') || '—' }]
                    : []),
                ]}
              />
            </div>
          </>
        ) : (
          <>
            <UploadZone file={file} onChange={setFile} accept={BULK_UPLOAD_ACCEPT} maxBytes={BULK_UPLOAD_MAX_BYTES} testId={`${testId}-zone`} />
            <p className="text-muted mt-12 mb-0">{t(m.templateHint, { filename: template.filename })}</p>
          </>
        )}
      </div>
      <ConfirmDialog
        open={askDiscard && !!discard}
        title={discard?.title ?? ''}
        confirmLabel={t(m.discardRows)}
        cancelLabel={t(m.keepEditing)}
        danger
        onConfirm={closeNow}
        onCancel={() => setAskDiscard(false)}
      >
        <p data-testid={`${testId}-discard-text`}>{discard?.text}</p>
        {discard?.fixedNotSent ? <p>{discard.fixedNotSent}</p> : null}
      </ConfirmDialog>
    </Modal>
  );
}
