// GET /farmers/{id}/: one farmer (the farmer drawer, and the edit form's values).
import { useQuery } from '@tanstack/react-query';
import type { Farmer } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export const getFarmer = (id: string, signal?: AbortSignal) => api<Envelope<Farmer>>(`/farmers/${id}/`, signal ? { signal } : {});

export function useFarmer(id: string | null) {
  return useQuery({ queryKey: queryKeys.farmers.detail(id), queryFn: ({ signal }) => getFarmer(id!, signal), enabled: Boolean(id) });
}
