// The confirmation dialog used before any consequential action (suspend, revoke, delete, reset…).
import type { ReactNode } from 'react';
import Modal from 'antd/es/modal';
import { t } from '../../i18n';
import { uiText as m } from './ui.messages';

type Props = {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  danger?: boolean;
  loading?: boolean;
  /** Keeps the confirm button disabled (a required choice is not made yet). */
  confirmDisabled?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
};

export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  cancelLabel,
  danger = false,
  loading = false,
  confirmDisabled = false,
  onConfirm,
  onCancel,
}: Props) {
  return (
    <Modal
      open={open}
      title={title}
      onOk={onConfirm}
      onCancel={onCancel}
      okText={confirmLabel ?? t(m.confirm)}
      cancelText={cancelLabel ?? t(m.cancel)}
      okButtonProps={{ danger, loading, disabled: confirmDisabled }}
      cancelButtonProps={{ disabled: loading }}
      mask={{ closable: !loading }}
      destroyOnHidden
      width={440}
    >
      {children}
    </Modal>
  );
}
