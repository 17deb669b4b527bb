// POST /auth/password/set-new-password/: sets the new password with the reset token (single use).
import { useMutation } from '@tanstack/react-query';
import type { setNewPasswordBody } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { In, MessageEnvelope } from '../../../lib/contract-types';

export const setNewPassword = (body: In<typeof setNewPasswordBody>) =>
  api<MessageEnvelope>('/auth/password/set-new-password/', { method: 'POST', body, session: false });

export function useSetNewPassword() {
  return useMutation({ mutationFn: setNewPassword });
}
