// GET /farms/{id}/: one farm with its mapping record and snapshots (the farm drawer).
import { useQuery } from '@tanstack/react-query';
import type { Farm } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export const getFarm = (id: string, signal?: AbortSignal) => api<Envelope<Farm>>(`/farms/${id}/`, signal ? { signal } : {});

export function useFarm(id: string | null) {
  return useQuery({ queryKey: queryKeys.farms.detail(id), queryFn: ({ signal }) => getFarm(id!, signal), enabled: Boolean(id) });
}
