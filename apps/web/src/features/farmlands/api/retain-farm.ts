// POST /farms/{id}/intersect (Retain): keeps this farm and cuts it out of the farms it overlaps; answers with the farms of
// the group that still overlap. Every farm query is refreshed afterwards (statuses, areas and the map change).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Farm } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export const retainFarm = (id: string) => api<Envelope<Farm[]>>(`/farms/${id}/intersect`, { method: 'POST' });

export function useRetainFarm() {
  const client = useQueryClient();
  return useMutation({ mutationFn: retainFarm, onSettled: () => client.invalidateQueries({ queryKey: queryKeys.farms.all }) });
}
