// POST /auth/password/update/: changes the password (the API ends the user's other sessions).
import { useMutation } from '@tanstack/react-query';
import type { passwordUpdateBody } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { In, MessageEnvelope } from '../../../lib/contract-types';
import { notifySuccess } from '../../../lib/notifier';
import { profileText } from '../profile.messages';

export const changePassword = (body: In<typeof passwordUpdateBody>) => api<MessageEnvelope>('/auth/password/update/', { method: 'POST', body });

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword, onSuccess: () => notifySuccess(profileText.passwordUpdated) });
}
