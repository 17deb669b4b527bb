// DELETE /accounts/agents/{id}/, from the Agents screen and the dashboard's agents card (shared by two features, so it
// lives in lib/): the agent's sessions end; the farmers and farms it recorded stay. Agents and counts refresh afterwards.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from './api-client';
import type { MessageEnvelope } from './contract-types';
import { queryKeys } from './query-keys';

export function useDeleteAgent() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<MessageEnvelope>(`/accounts/agents/${encodeURIComponent(id)}/`, { method: 'DELETE' }),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: queryKeys.agents.all });
      void client.invalidateQueries({ queryKey: queryKeys.analytics.all });
    },
  });
}
