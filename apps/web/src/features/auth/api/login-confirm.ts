// POST /auth/login/confirm: the 6-digit code for a challenge; answers the session.
import { useMutation } from '@tanstack/react-query';
import type { loginConfirmBody, SessionResult } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope, In } from '../../../lib/contract-types';

export type LoginConfirmBody = In<typeof loginConfirmBody>;

export const loginConfirm = (body: LoginConfirmBody) => api<Envelope<SessionResult>>('/auth/login/confirm', { method: 'POST', body, session: false });

export function useLoginConfirm() {
  // A refused code is reported once, beside the code (code-step.tsx), which also sends every other error to the notifier.
  return useMutation({ mutationFn: loginConfirm, meta: { silent: true } });
}
