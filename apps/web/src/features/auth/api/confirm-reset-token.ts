// POST /auth/password/confirm-reset-token/: checks that a reset link is still valid before showing the form.
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { MessageEnvelope } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export const confirmResetToken = (token: string) =>
  api<MessageEnvelope>('/auth/password/confirm-reset-token/', { method: 'POST', body: { token }, session: false });

export function useConfirmResetToken(token: string | null) {
  return useQuery({
    queryKey: queryKeys.auth.resetToken(token),
    queryFn: () => confirmResetToken(token ?? ''),
    enabled: Boolean(token),
    retry: false,
    staleTime: Infinity,
    meta: { silent: true },
  });
}
