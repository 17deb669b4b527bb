// DELETE /accounts/agents/{id}/ from the dashboard's agents card; the agents and counts refresh afterwards.
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
