// PUT /base/tenants/{id}/suspend-deactivate/ with is_active or is_suspended: Activate / Deactivate, Suspend / Unsuspend.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { MessageEnvelope } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';
import { t } from '../../../i18n';
import { tenantsText as m } from '../tenants.messages';

export type TenantStateChange = { is_active: boolean } | { is_suspended: boolean };

/** The success texts of docs/requirements.md §8. */
export function stateChangeMessage(change: TenantStateChange): string {
  if ('is_active' in change) return change.is_active ? t(m.activated) : t(m.deactivated);
  return change.is_suspended ? t(m.suspended) : t(m.unsuspended);
}

export const setTenantState = ({ id, change }: { id: string; change: TenantStateChange }) =>
  api<MessageEnvelope>(`/base/tenants/${encodeURIComponent(id)}/suspend-deactivate/`, { method: 'PUT', body: change });

export function useSetTenantState() {
  const client = useQueryClient();
  return useMutation({ mutationFn: setTenantState, onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.tenants.all }) });
}
