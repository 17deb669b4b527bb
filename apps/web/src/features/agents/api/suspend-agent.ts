// PUT /accounts/agents/{id}/suspend: one call suspends an active agent (its sessions end at once) or unsuspends a
// suspended one; the answer's message says which.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Agent } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export function useToggleSuspension() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<Envelope<Agent>>(`/accounts/agents/${id}/suspend`, { method: 'PUT', body: {} }),
    onSettled: () => void client.invalidateQueries({ queryKey: queryKeys.agents.all }),
  });
}
