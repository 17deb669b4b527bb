// GET /analytics/tenants-dashboard-count?year=: tenants registered per month of the year, and the totals at its end.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TenantsDashboardCount } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export const getTenantsDashboardCount = (year: number, signal?: AbortSignal) =>
  api<Envelope<TenantsDashboardCount>>('/analytics/tenants-dashboard-count', { query: { year }, ...(signal ? { signal } : {}) });

export function useTenantsDashboardCount(year: number) {
  return useQuery({
    queryKey: queryKeys.analytics.provider('tenants-dashboard-count', year),
    queryFn: ({ signal }) => getTenantsDashboardCount(year, signal),
    placeholderData: keepPreviousData,
  });
}
