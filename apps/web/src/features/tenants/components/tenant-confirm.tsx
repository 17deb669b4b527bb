// i18n: pending (texts not yet in the catalogue: docs/decisions/console-languages.md)
// The confirmations before a tenant or license changes (docs/requirements.md §2, §4): Suspend / Unsuspend, Deactivate / Activate,
// Revoke License and Re-issue License, each with its own warning; the success toast is the spec's text.
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { formatDate } from '../../../lib/formatters';
import { notifySuccess } from '../../../lib/notifier';
import { LICENSE_REISSUED, LICENSE_REVOKED, useReissueLicense, useRevokeLicense } from '../../../lib/license-actions';
import { stateChangeMessage, useSetTenantState, type TenantStateChange } from '../api/set-tenant-state';
import type { Tenant } from '../api/tenant-types';

export type TenantAction = 'suspend' | 'unsuspend' | 'deactivate' | 'activate' | 'revoke' | 'reissue';
export type PendingAction = { action: TenantAction; tenant: Tenant } | null;

const CHANGE: Record<Exclude<TenantAction, 'revoke' | 'reissue'>, TenantStateChange> = {
  suspend: { is_suspended: true },
  unsuspend: { is_suspended: false },
  deactivate: { is_active: false },
  activate: { is_active: true },
};

function texts(action: TenantAction, t: Tenant): { title: string; body: string; confirm: string; danger: boolean } {
  switch (action) {
    case 'suspend':
      return { title: 'Suspend Tenant', body: `Suspend ${t.name}? While suspended, the tenant cannot perform actions on the platform and its users are signed out.`, confirm: 'Suspend', danger: true };
    case 'unsuspend':
      return { title: 'Unsuspend Tenant', body: `Unsuspend ${t.name}? The tenant gets full access to the platform back.`, confirm: 'Unsuspend', danger: false };
    case 'deactivate':
      return { title: 'Deactivate Tenant', body: `Deactivate ${t.name}? While inactive, the tenant cannot perform actions on the platform and its users are signed out.`, confirm: 'Deactivate', danger: true };
    case 'activate':
      return { title: 'Activate Tenant', body: `Activate ${t.name}? The tenant gets full access to the platform back.`, confirm: 'Activate', danger: false };
    case 'revoke':
      return {
        title: 'Revoke License',
        body: `Revoke the ${t.license?.type ?? ''} license of ${t.name}? A revoked license stops the tenant acting on the platform.`,
        confirm: 'Revoke',
        danger: true,
      };
    case 'reissue':
      return {
        title: 'Re-issue License',
        body: `Re-issue the SDK license of ${t.name}? It is extended by one year (it now expires on ${formatDate(t.license?.expiry_date)}).`,
        confirm: 'Re-issue',
        danger: false,
      };
  }
}

export function TenantConfirm({ pending, onDone }: { pending: PendingAction; onDone: () => void }) {
  const setState = useSetTenantState();
  const revoke = useRevokeLicense();
  const reissue = useReissueLicense();
  const busy = setState.isPending || revoke.isPending || reissue.isPending;
  const t = pending ? texts(pending.action, pending.tenant) : null;

  const run = () => {
    if (!pending) return;
    const { action, tenant } = pending;
    const done = { onSettled: onDone };
    if (action === 'revoke' || action === 'reissue') {
      const licenseId = tenant.license?.id;
      if (!licenseId) return onDone();
      if (action === 'revoke') revoke.mutate(licenseId, { ...done, onSuccess: () => notifySuccess(LICENSE_REVOKED) });
      else reissue.mutate(licenseId, { ...done, onSuccess: () => notifySuccess(LICENSE_REISSUED) });
      return;
    }
    const change = CHANGE[action];
    setState.mutate({ id: tenant.id, change }, { ...done, onSuccess: () => notifySuccess(stateChangeMessage(change)) });
  };

  return (
    <ConfirmDialog open={pending !== null} title={t?.title ?? ''} confirmLabel={t?.confirm ?? 'Confirm'} danger={t?.danger ?? false} loading={busy} onConfirm={run} onCancel={onDone}>
      {t?.body}
    </ConfirmDialog>
  );
}

/** The row actions a tenant offers now (docs/requirements.md §2): Suspend or Unsuspend, Deactivate or Activate, Revoke, Re-issue (SDK). */
export function availableActions(t: Tenant): TenantAction[] {
  const out: TenantAction[] = [t.is_suspended ? 'unsuspend' : 'suspend', t.is_active ? 'deactivate' : 'activate'];
  if (t.license && !t.license.is_revoked) out.push('revoke');
  if (t.license?.type === 'SDK') out.push('reissue');
  return out;
}

export const ACTION_LABELS: Record<TenantAction, string> = {
  suspend: 'Suspend',
  unsuspend: 'Unsuspend',
  deactivate: 'Deactivate',
  activate: 'Activate',
  revoke: 'Revoke License',
  reissue: 'Re-issue License',
};
