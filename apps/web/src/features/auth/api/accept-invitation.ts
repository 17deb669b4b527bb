// POST /onboarding/tenant-admin/?signed_key=…: an invited tenant admin sets a password (and may correct their name).
import { useMutation } from '@tanstack/react-query';
import type { onboardingBody } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { In, MessageEnvelope } from '../../../lib/contract-types';

export type OnboardingBody = In<typeof onboardingBody>;

export const acceptInvitation = (signedKey: string, body: OnboardingBody) =>
  api<MessageEnvelope>('/onboarding/tenant-admin/', { method: 'POST', body, query: { signed_key: signedKey }, session: false });

export function useAcceptInvitation(signedKey: string) {
  return useMutation({ mutationFn: (body: OnboardingBody) => acceptInvitation(signedKey, body) });
}
