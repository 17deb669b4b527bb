// POST /auth/{id}/reset-mfa/: clears the user's two-factor; they enrol again at their next sign-in.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { MessageEnvelope } from '../../../lib/contract-types';
import { notifySuccess } from '../../../lib/notifier';
import { profileKey } from './get-profile';
import { profileText } from '../profile.messages';

export const resetTwoFactor = (userId: string) => api<MessageEnvelope>(`/auth/${userId}/reset-mfa/`, { method: 'POST', body: {} });

export function useResetTwoFactor(userId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => resetTwoFactor(userId),
    onSuccess: async () => {
      notifySuccess(profileText.twoFactorReset);
      await qc.invalidateQueries({ queryKey: profileKey(userId) });
    },
  });
}
