// GET and POST /base/regions/: the tenant's regions (the area form's Region select and the list's region filter), and
// the Create Region modal.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { createRegionBody, region } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope, In, ListPage, Out } from '../../../lib/contract-types';

export type Region = Out<typeof region>;

export const getRegions = (signal?: AbortSignal) => api<Envelope<ListPage<Region>>>('/base/regions/', { query: { page_size: 100 }, ...(signal ? { signal } : {}) });

export function useRegions() {
  return useQuery({ queryKey: ['regions'], queryFn: ({ signal }) => getRegions(signal) });
}

export const createRegion = (body: In<typeof createRegionBody>) => api<Envelope<Region>>('/base/regions/', { method: 'POST', body });

export function useCreateRegion() {
  const client = useQueryClient();
  return useMutation({ mutationFn: createRegion, onSuccess: () => client.invalidateQueries({ queryKey: ['regions'] }) });
}
