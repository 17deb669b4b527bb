// DELETE /accounts/agents/{id}/: the agent's sessions end; the farmers and farms it recorded stay.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { MessageEnvelope } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export function useDeleteAgent() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<MessageEnvelope>(`/accounts/agents/${id}/`, { method: 'DELETE' }),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: queryKeys.agents.all });
      void client.invalidateQueries({ queryKey: queryKeys.analytics.all });
    },
  });
}
