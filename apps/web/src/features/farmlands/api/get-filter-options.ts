// The Farmlands filter's choices: GET /base/regions/ (the tenant's regions) and GET /operational-areas/ (its areas,
// within the chosen region when one is chosen). Tenants have tens of each: one page of 100.
import { useQuery } from '@tanstack/react-query';
import type { OperationalArea, region } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope, ListPage, Out } from '../../../lib/contract-types';

export type Region = Out<typeof region>;

export function useRegionOptions() {
  return useQuery({ queryKey: ['regions'], queryFn: ({ signal }) => api<Envelope<ListPage<Region>>>('/base/regions/', { query: { page_size: 100 }, signal }), staleTime: 60_000 });
}

export function useAreaOptions(region?: string) {
  return useQuery({
    queryKey: ['operational-areas', 'options', region ?? ''],
    queryFn: ({ signal }) => api<Envelope<ListPage<OperationalArea>>>('/operational-areas/', { query: { page_size: 100, region }, signal }),
    staleTime: 60_000,
  });
}
