// The one file drop zone (analysis upload, and the agents' and farmers' bulk uploads): drag-and-drop or select, only the
// listed extensions and at most maxBytes, first file only. A rejected file is not taken, and the drop zone says why (its
// type or its size against the limit; issue 33: the spec's "silently ignored" left users guessing). After
// a file is taken, a progress ring advances 10 every 80 ms ("Loading..." then "Processed", docs/requirements.md §4, §9), then the chosen
// file shows in a row with a remove icon. The API checks everything again: it is the authority.
import { useEffect, useRef, useState } from 'react';
import { CloseOutlined, InboxOutlined } from '@ant-design/icons';
import Button from 'antd/es/button';
import Progress from 'antd/es/progress';
import Typography from 'antd/es/typography';
import Upload from 'antd/es/upload';
import type { RcFile } from 'antd/es/upload';
import { formatNumber } from '../../lib/formatters';
import { currentIntl, t } from '../../i18n';
import { uiText as m } from './ui.messages';

export const UPLOAD_RING_STEP = 10;
export const UPLOAD_RING_INTERVAL_MS = 80;

type Props = {
  file: File | null;
  onChange: (file: File | null) => void;
  /** Extensions with the dot, lower case: ['.csv', '.xls', '.xlsx']. */
  accept: readonly string[];
  maxBytes: number;
  hint?: string;
  testId?: string;
};

/** Whether a file may be taken: its extension is listed and it is within the size limit. */
export function acceptsFile(file: { name: string; size: number }, accept: readonly string[], maxBytes: number): boolean {
  return rejectionOf(file, accept, maxBytes) === null;
}

const typeList = (accept: readonly string[]) => {
  const names = accept.map((e) => e.slice(1).toUpperCase());
  return names.length > 1 ? t(m.typeList, { first: names.slice(0, -1).join(', '), last: names[names.length - 1]! }) : (names[0] ?? '');
};
const megabytes = (bytes: number) => t(m.megabytes, { value: formatNumber(Math.round((bytes / 1024 / 1024) * 10) / 10) });

/** Why a file is refused (its type, then its size), or null when it may be taken. */
export function rejectionOf(file: { name: string; size: number }, accept: readonly string[], maxBytes: number): string | null {
  const name = file.name.toLowerCase();
  if (!accept.some((ext) => name.endsWith(ext))) return t(m.wrongType, { name: file.name, types: typeList(accept) });
  if (file.size > maxBytes) {
    // Just over the limit reads the same in MB: then the sizes are given in bytes.
    const same = megabytes(file.size) === megabytes(maxBytes);
    const size = same ? t(m.bytes, { value: formatNumber(file.size) }) : megabytes(file.size);
    const limit = same ? t(m.limitInBytes, { megabytes: megabytes(maxBytes), bytes: formatNumber(maxBytes) }) : megabytes(maxBytes);
    return t(m.tooLarge, { name: file.name, size, limit });
  }
  return null;
}

export function UploadZone({ file, onChange, accept, maxBytes, hint, testId = 'upload-zone' }: Props) {
  const [ring, setRing] = useState<number | null>(null);
  const [rejected, setRejected] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setInterval> | null>(null);

  useEffect(
    () => () => {
      if (timer.current) clearInterval(timer.current);
    },
    [],
  );

  const take = (f: File) => {
    const why = rejectionOf(f, accept, maxBytes);
    setRejected(why);
    if (why) return;
    if (timer.current) clearInterval(timer.current);
    // The ring's count is kept here, and the file handed on outside a state update (calling the parent's setter inside
    // setRing's updater made React warn of updating one component while rendering another).
    let percent = 0;
    setRing(0);
    timer.current = setInterval(() => {
      percent = Math.min(percent + UPLOAD_RING_STEP, 100);
      setRing(percent);
      if (percent >= 100) {
        if (timer.current) clearInterval(timer.current);
        timer.current = null;
        onChange(f);
      }
    }, UPLOAD_RING_INTERVAL_MS);
  };

  if (ring !== null && ring < 100) {
    return (
      <div data-testid={`${testId}-progress`} className="upload-progress">
        <Progress type="circle" percent={ring} size={88} />
        <div className="mt-8">{t(m.uploadLoading)}</div>
      </div>
    );
  }

  if (file) {
    return (
      <div data-testid={`${testId}-file`} className="upload-file">
        <Progress type="circle" percent={100} size={36} />
        <div className="grow-shrink">
          <Typography.Text ellipsis strong>
            {file.name}
          </Typography.Text>
          <div className="text-muted small">{t(m.processed, { size: formatNumber(Math.ceil(file.size / 1024)) })}</div>
        </div>
        <Button
          type="text"
          danger
          aria-label={t(m.removeFile)}
          icon={<CloseOutlined />}
          onClick={() => {
            setRing(null);
            onChange(null);
          }}
        />
      </div>
    );
  }

  return (
    <div data-testid={testId}>
      <Upload.Dragger
        accept={accept.join(',')}
        multiple={false}
        showUploadList={false}
        beforeUpload={(f: RcFile, list: RcFile[]) => {
          // Only the first file of a drop is used.
          if (list[0] === f) take(f);
          return false;
        }}
        onDrop={(e) => {
          // A dropped file of another type never reaches beforeUpload (the dragger filters by accept): say so here.
          const first = e.dataTransfer.files[0];
          if (first && !accept.some((ext) => first.name.toLowerCase().endsWith(ext))) setRejected(rejectionOf(first, accept, maxBytes));
        }}
      >
        <p className="upload-icon" aria-hidden>
          <InboxOutlined />
        </p>
        <p className="upload-drop">{currentIntl().formatMessage(m.dropHere, { link: (chunks) => <Typography.Link key="link">{chunks}</Typography.Link> })}</p>
        <p className="text-muted m-0">
          {hint ?? t(m.typesAndLimit, { types: accept.map((e) => e.slice(1).toUpperCase()).join(', '), megabytes: formatNumber(maxBytes / 1024 / 1024, 0) })}
        </p>
        <div role="alert" data-testid={`${testId}-rejected`} className={rejected ? 'upload-rejected mt-8' : 'upload-rejected'}>
          {rejected}
        </div>
      </Upload.Dragger>
    </div>
  );
}
