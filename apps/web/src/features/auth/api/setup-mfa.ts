// POST /auth/setup-mfa/: starts two-factor enrolment; answers the TOTP secret and its otpauth URI.
import { useMutation } from '@tanstack/react-query';
import type { setupMfaBody, setupMfaResult } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope, In, Out } from '../../../lib/contract-types';

export type SetupMfaBody = In<typeof setupMfaBody>;
export type MfaSetup = Out<typeof setupMfaResult>;

export const setupMfa = (body: SetupMfaBody) => api<Envelope<MfaSetup>>('/auth/setup-mfa/', { method: 'POST', body, session: false });

export function useSetupMfa() {
  return useMutation({ mutationFn: setupMfa });
}
