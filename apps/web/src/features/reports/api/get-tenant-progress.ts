// GET /analytics/tenant-progress/?year=: per tenant, per month of the year, the farms mapped, the area mapped and the
// agents active (beyond the spec: the provider's Reports screen).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TenantProgress } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope } from '../../../lib/contract-types';

export const getTenantProgress = (year: number, signal?: AbortSignal) =>
  api<Envelope<TenantProgress>>('/analytics/tenant-progress/', { query: { year }, ...(signal ? { signal } : {}) });

export function useTenantProgress(year: number) {
  return useQuery({
    queryKey: ['analytics', 'provider', 'tenant-progress', year],
    queryFn: ({ signal }) => getTenantProgress(year, signal),
    placeholderData: keepPreviousData,
  });
}
