// GET /farms/{id}/history/: the farm's earlier boundaries (re-mapped, or cut by Retain), newest first.
import { useQuery } from '@tanstack/react-query';
import type { FarmBoundary } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export const getFarmHistory = (id: string, signal?: AbortSignal) => api<Envelope<FarmBoundary[]>>(`/farms/${id}/history/`, signal ? { signal } : {});

export function useFarmHistory(id: string | null) {
  return useQuery({ queryKey: queryKeys.farms.history(id), queryFn: ({ signal }) => getFarmHistory(id!, signal), enabled: Boolean(id) });
}
