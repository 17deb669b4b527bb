// The confirmations before a tenant or license changes (docs/requirements.md §2, §4): Suspend / Unsuspend, Deactivate / Activate,
// Revoke License and Re-issue License, each with its own warning; the success toast is the spec's text.
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { formatDate } from '../../../lib/formatters';
import { notifySuccess } from '../../../lib/notifier';
import { LICENSE_REISSUED, LICENSE_REVOKED, useReissueLicense, useRevokeLicense } from '../../../lib/license-actions';
import { stateChangeMessage, useSetTenantState, type TenantStateChange } from '../api/set-tenant-state';
import type { Tenant } from '../api/tenant-types';
import { t, type Text } from '../../../i18n';
import { tenantsText as m } from '../tenants.messages';
import { licenseTypeLabel } from './tenant-labels';

export type TenantAction = 'suspend' | 'unsuspend' | 'deactivate' | 'activate' | 'revoke' | 'reissue';
export type PendingAction = { action: TenantAction; tenant: Tenant } | null;

const CHANGE: Record<Exclude<TenantAction, 'revoke' | 'reissue'>, TenantStateChange> = {
  suspend: { is_suspended: true },
  unsuspend: { is_suspended: false },
  deactivate: { is_active: false },
  activate: { is_active: true },
};

function texts(action: TenantAction, tn: Tenant): { title: string; body: string; confirm: string; danger: boolean } {
  switch (action) {
    case 'suspend':
      return { title: t(m.suspendTenant), body: t(m.suspendBody, { name: tn.name }), confirm: t(m.suspend), danger: true };
    case 'unsuspend':
      return { title: t(m.unsuspendTenant), body: t(m.unsuspendBody, { name: tn.name }), confirm: t(m.unsuspend), danger: false };
    case 'deactivate':
      return { title: t(m.deactivateTenant), body: t(m.deactivateBody, { name: tn.name }), confirm: t(m.deactivate), danger: true };
    case 'activate':
      return { title: t(m.activateTenant), body: t(m.activateBody, { name: tn.name }), confirm: t(m.activate), danger: false };
    case 'revoke':
      return {
        title: t(m.revokeLicense),
        body: t(m.revokeBody, { type: tn.license ? licenseTypeLabel(tn.license.type) : '', name: tn.name }),
        confirm: t(m.revoke),
        danger: true,
      };
    case 'reissue':
      return {
        title: t(m.reissueLicense),
        body: t(m.reissueBody, { name: tn.name, date: formatDate(tn.license?.expiry_date) }),
        confirm: t(m.reissue),
        danger: false,
      };
  }
}

export function TenantConfirm({ pending, onDone }: { pending: PendingAction; onDone: () => void }) {
  const setState = useSetTenantState();
  const revoke = useRevokeLicense();
  const reissue = useReissueLicense();
  const busy = setState.isPending || revoke.isPending || reissue.isPending;
  const shown = pending ? texts(pending.action, pending.tenant) : null;

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
    <ConfirmDialog
      open={pending !== null}
      title={shown?.title ?? ''}
      confirmLabel={shown?.confirm ?? t(m.confirm)}
      danger={shown?.danger ?? false}
      loading={busy}
      onConfirm={run}
      onCancel={onDone}
    >
      {shown?.body}
    </ConfirmDialog>
  );
}

/** The row actions a tenant offers now (docs/requirements.md §2): Suspend or Unsuspend, Deactivate or Activate, Revoke, Re-issue (SDK). */
export function availableActions(tn: Tenant): TenantAction[] {
  const out: TenantAction[] = [tn.is_suspended ? 'unsuspend' : 'suspend', tn.is_active ? 'deactivate' : 'activate'];
  if (tn.license && !tn.license.is_revoked) out.push('revoke');
  if (tn.license?.type === 'SDK') out.push('reissue');
  return out;
}

const ACTION_LABELS: Record<TenantAction, Text> = {
  suspend: m.suspend,
  unsuspend: m.unsuspend,
  deactivate: m.deactivate,
  activate: m.activate,
  revoke: m.revokeLicense,
  reissue: m.reissueLicense,
};

/** A row action's menu label in the page's language. */
export const actionLabel = (action: TenantAction): string => t(ACTION_LABELS[action]);
