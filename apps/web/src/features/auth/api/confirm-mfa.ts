// POST /auth/confirm-mfa/: the first code from the new authenticator; completes enrolment and signs in.
import { useMutation } from '@tanstack/react-query';
import type { confirmMfaBody, SessionResult } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope, In } from '../../../lib/contract-types';

export type ConfirmMfaBody = In<typeof confirmMfaBody>;

export const confirmMfa = (body: ConfirmMfaBody) => api<Envelope<SessionResult>>('/auth/confirm-mfa/', { method: 'POST', body, session: false });

export function useConfirmMfa() {
  // A refused code is reported once, beside the code (code-step.tsx), which also sends every other error to the notifier.
  return useMutation({ mutationFn: confirmMfa, meta: { silent: true } });
}
