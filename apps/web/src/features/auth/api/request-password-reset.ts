// POST /auth/password/reset/: mails a single-use reset link (the answer is the same whether the account exists or not).
import { useMutation } from '@tanstack/react-query';
import type { passwordResetBody } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { In, MessageEnvelope } from '../../../lib/contract-types';

export const requestPasswordReset = (body: In<typeof passwordResetBody>) =>
  api<MessageEnvelope>('/auth/password/reset/', { method: 'POST', body, session: false });

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}
