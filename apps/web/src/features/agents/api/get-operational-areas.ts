// GET /operational-areas/: the tenant's operational areas, for the filter and the wizard's "Assign location" step
// (tenants have tens of areas: one page of 100, optionally within a region).
import { useQuery } from '@tanstack/react-query';
import type { OperationalArea } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope, ListPage } from '../../../lib/contract-types';

export function useOperationalAreaOptions(region?: string) {
  return useQuery({
    queryKey: ['operational-areas', 'options', region ?? ''],
    queryFn: ({ signal }) => api<Envelope<ListPage<OperationalArea>>>('/operational-areas/', { query: { page_size: 100, region }, signal }),
    staleTime: 60_000,
  });
}
