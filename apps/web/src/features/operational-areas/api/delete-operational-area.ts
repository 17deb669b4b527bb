// DELETE /operational-areas/{id}/: its farms move to another covering area or to none.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { MessageEnvelope } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export const deleteOperationalArea = (id: string) => api<MessageEnvelope>(`/operational-areas/${id}/`, { method: 'DELETE' });

export function useDeleteOperationalArea() {
  const client = useQueryClient();
  return useMutation({ mutationFn: deleteOperationalArea, onSettled: () => client.invalidateQueries({ queryKey: queryKeys.operationalAreas.all }) });
}
