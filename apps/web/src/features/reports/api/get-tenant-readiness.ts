// GET /eudr-reports/tenant-readiness/: each tenant's EUDR readiness (provider staff; issue 29).
import { useQuery } from '@tanstack/react-query';
import type { TenantReadiness } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export const getTenantReadiness = (signal?: AbortSignal) => api<Envelope<TenantReadiness>>('/eudr-reports/tenant-readiness/', signal ? { signal } : {});

export function useTenantReadiness() {
  return useQuery({ queryKey: queryKeys.eudrReports.tenantReadiness, queryFn: ({ signal }) => getTenantReadiness(signal) });
}
