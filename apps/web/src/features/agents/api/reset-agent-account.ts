// PUT /accounts/users/{id}/reset: ends the agent's sessions, clears its password and two-factor, mails a new invitation.
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { MessageEnvelope } from '../../../lib/contract-types';

export function useResetAgentAccount() {
  return useMutation({ mutationFn: (id: string) => api<MessageEnvelope>(`/accounts/users/${id}/reset`, { method: 'PUT', body: {} }) });
}
