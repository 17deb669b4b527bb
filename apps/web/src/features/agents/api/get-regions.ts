// GET /base/regions/: the tenant's regions (the agents filter, and the wizard's region choice that narrows the areas).
import { useQuery } from '@tanstack/react-query';
import type { region } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope, ListPage, Out } from '../../../lib/contract-types';

export type Region = Out<typeof region>;

export function useRegions() {
  return useQuery({ queryKey: ['regions'], queryFn: ({ signal }) => api<Envelope<ListPage<Region>>>('/base/regions/', { query: { page_size: 100 }, signal }), staleTime: 60_000 });
}
