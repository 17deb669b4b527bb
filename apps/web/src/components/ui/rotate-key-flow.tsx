// Rotate key (issue 33): the one flow, used by the license list's row action and by the Manage License drawer (two
// features, so it lives here). A
// confirmation first (the current key stops working at once), then the new key shown once with a working copy
// ('License Key copied'); the old license is revoked and stays in the list.
import { useState, type ReactNode } from 'react';
import { notifySuccess } from '../../lib/notifier';
import { ConfirmDialog } from './confirm-dialog';
import { LicenseKeyModal } from './copy-key';
import { LICENSE_KEY_ROTATED, useRotateLicenseKey } from '../../lib/rotate-license-key';
import { t } from '../../i18n';
import { uiText as m } from './ui.messages';

/** What the flow needs to know of a license: its id, type, key hint and tenant's name. */
export type RotatableLicense = { id: string; type: string; key: string; tenant_name: string };

/** ask(license) opens the confirmation; element renders the dialog and the new key's modal; onRotated runs after success. */
export function useRotateKeyFlow(onRotated?: () => void): { ask: (license: RotatableLicense) => void; element: ReactNode } {
  const rotate = useRotateLicenseKey();
  const [pending, setPending] = useState<RotatableLicense | null>(null);
  const [newKey, setNewKey] = useState<{ key: string; tenant: string } | null>(null);
  const run = () => {
    if (!pending) return;
    const tenant = pending.tenant_name;
    rotate.mutate(pending.id, {
      onSettled: () => setPending(null),
      onSuccess: (res) => {
        notifySuccess(LICENSE_KEY_ROTATED);
        setNewKey({ key: res.data.license_key, tenant });
        onRotated?.();
      },
    });
  };
  const element = (
    <>
      <ConfirmDialog
        open={pending !== null}
        title={t(m.rotateKey)}
        confirmLabel={t(m.rotateKey)}
        danger
        loading={rotate.isPending}
        onCancel={() => setPending(null)}
        onConfirm={run}
      >
        {pending ? t(m.rotateKeyBody, { type: pending.type, tenant: pending.tenant_name, key: pending.key }) : null}
      </ConfirmDialog>
      <LicenseKeyModal licenseKey={newKey?.key ?? null} intro={t(m.newKeyIntro, { tenant: newKey?.tenant ?? '' })} onClose={() => setNewKey(null)} />
    </>
  );
  return { ask: setPending, element };
}
