// DELETE /custom-analysis/{id}/: removes an analysis with its rows; the list is refreshed afterwards.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { MessageEnvelope } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export const deleteAnalysis = (id: string) => api<MessageEnvelope>(`/custom-analysis/${id}/`, { method: 'DELETE' });

/** Deletes several analyses one after the other (the API deletes one at a time). */
export function useDeleteAnalyses() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (ids: readonly string[]) => {
      for (const id of ids) await deleteAnalysis(id);
    },
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.analyses.all }),
  });
}
