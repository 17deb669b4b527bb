// License keys in the console. A key is stored hashed, so lists show only its hint (the first 10 characters, docs/requirements.md §2),
// labelled as a hint and not copyable (a hint signs nothing). The full key is shown once, when it is issued (a new
// tenant, a license type change) or rotated, in LicenseKeyModal with a working copy: 'License Key copied' for 1.5 s
// (docs/requirements.md §8, §9).
import Button from 'antd/es/button';
import Modal from 'antd/es/modal';
import Tooltip from 'antd/es/tooltip';
import Typography from 'antd/es/typography';
import { CopyOutlined } from '@ant-design/icons';
import { truncateKey } from '../../lib/license-status';
import { notifyError, toast } from '../../lib/notifier';
import { t } from '../../i18n';
import { uiText as m } from './ui.messages';
import { Inline } from './layout';

/** The English texts (tests compare with them); the console shows them in the page's language. */
export const KEY_COPIED = m.keyCopied.defaultMessage;
export const COPY_TOAST_MS = 1500;
export const KEY_HINT_HELP = m.keyHintHelp.defaultMessage;

/** The key's hint, labelled as such (a list cell or a description). */
export function KeyHint({ value }: { value: string | null | undefined }) {
  if (!value) return <span>--</span>;
  return (
    <Tooltip title={t(m.keyHintHelp)}>
      <span className="inline-flex align-baseline gap-6 nowrap" aria-label={t(m.keyHintLabel, { value })}>
        <code data-testid="license-key">{truncateKey(value)}</code>
        <Typography.Text type="secondary" className="small">
          {t(m.hint)}
        </Typography.Text>
      </span>
    </Tooltip>
  );
}

async function copyKey(key: string, copied = t(m.keyCopied), toastId = 'license-key-copied'): Promise<void> {
  try {
    await navigator.clipboard.writeText(key);
    toast('success', copied, toastId, COPY_TOAST_MS);
  } catch (err) {
    notifyError(err instanceof Error ? err : new Error(t(m.keyNotCopied)));
  }
}

export const SECRET_COPIED = m.secretCopied.defaultMessage;

type SecretModalProps = { secret: string | null; title: string; intro: string; onClose: () => void };

/** Any other secret shown once (a webhook's signing secret): the same modal and copy button as the license key's. */
export function SecretOnceModal({ secret, title, intro, onClose }: SecretModalProps) {
  return (
    <Modal
      open={secret !== null}
      title={title}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose}>
          {t(m.done)}
        </Button>
      }
    >
      <Typography.Paragraph>{t(m.secretOnce, { intro })}</Typography.Paragraph>
      <Inline>
        <code data-testid="created-secret" className="break-all grow">
          {secret}
        </code>
        <Button icon={<CopyOutlined aria-hidden="true" />} onClick={() => secret && void copyKey(secret, t(m.secretCopied), 'secret-copied')}>
          {t(m.copySecret)}
        </Button>
      </Inline>
    </Modal>
  );
}

type KeyModalProps = { licenseKey: string | null; intro: string; onClose: () => void };

/** The full key, shown this once with a copy button. */
export function LicenseKeyModal({ licenseKey, intro, onClose }: KeyModalProps) {
  return (
    <Modal
      open={licenseKey !== null}
      title={t(m.licenseKey)}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose}>
          {t(m.done)}
        </Button>
      }
    >
      <Typography.Paragraph>{t(m.keyOnce, { intro })}</Typography.Paragraph>
      <Inline>
        <code data-testid="created-license-key" className="break-all grow">
          {licenseKey}
        </code>
        <Button icon={<CopyOutlined aria-hidden="true" />} onClick={() => licenseKey && void copyKey(licenseKey)}>
          {t(m.copyKey)}
        </Button>
      </Inline>
    </Modal>
  );
}
