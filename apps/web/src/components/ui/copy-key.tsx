// A license key shown truncated to 10 characters with a copy button; copying shows 'License Key copied' for 1.5 s
// (spec §8, §9). The full key is in the button's title and the clipboard, never re-fetched.
import Button from 'antd/es/button';
import Tooltip from 'antd/es/tooltip';
import { CopyOutlined } from '@ant-design/icons';
import { truncateKey } from '../../lib/license-status';
import { notifyError, toast } from '../../lib/notifier';

export const KEY_COPIED = 'License Key copied';
export const COPY_TOAST_MS = 1500;

export function CopyKey({ value }: { value: string | null | undefined }) {
  if (!value) return <span>--</span>;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      toast('success', KEY_COPIED, 'license-key-copied', COPY_TOAST_MS);
    } catch (err) {
      notifyError(err instanceof Error ? err : new Error('The key could not be copied'));
    }
  };
  return (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 4, whiteSpace: 'nowrap' }}>
      <code data-testid="license-key">{truncateKey(value)}</code>
      <Tooltip title="Copy key">
        <Button
          type="text"
          size="small"
          aria-label="Copy license key"
          icon={<CopyOutlined aria-hidden="true" />}
          onClick={(e) => {
            e.stopPropagation();
            void copy();
          }}
        />
      </Tooltip>
    </span>
  );
}
