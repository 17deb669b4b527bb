// GET /analytics/tenants-status-count/: tenants by displayed status (Active, Inactive, Suspended).
import { useQuery } from '@tanstack/react-query';
import type { TenantsStatusCount } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export const getTenantsStatusCount = (signal?: AbortSignal) => api<Envelope<TenantsStatusCount>>('/analytics/tenants-status-count/', signal ? { signal } : {});

export function useTenantsStatusCount() {
  return useQuery({ queryKey: queryKeys.analytics.provider('tenants-status-count'), queryFn: ({ signal }) => getTenantsStatusCount(signal) });
}
