// POST /auth/login/: email and password; answers a two-factor challenge or an enrolment step.
import { useMutation } from '@tanstack/react-query';
import type { loginBody, loginResult } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope, In, Out } from '../../../lib/contract-types';

export type LoginBody = In<typeof loginBody>;
export type LoginChallenge = Out<typeof loginResult>;

export const login = (body: LoginBody) => api<Envelope<LoginChallenge>>('/auth/login/', { method: 'POST', body, session: false });

export function useLogin() {
  return useMutation({ mutationFn: login });
}
