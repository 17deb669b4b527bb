// DELETE /farmers/{id}/: a farmer with farms is refused (409 farmer_has_farms) unless delete_farms=true, which deletes
// the farms too. The dialog shows the refusal itself, so the notifier stays silent for that answer.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { MessageEnvelope } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export function useDeleteFarmer() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, deleteFarms }: { id: string; deleteFarms: boolean }) =>
      api<MessageEnvelope>(`/farmers/${id}/`, { method: 'DELETE', query: deleteFarms ? { delete_farms: 'true' } : {} }),
    meta: { silent: true },
    onSettled: () => {
      void client.invalidateQueries({ queryKey: queryKeys.farmers.all });
      void client.invalidateQueries({ queryKey: queryKeys.farms.all });
      void client.invalidateQueries({ queryKey: queryKeys.analytics.all });
    },
  });
}
