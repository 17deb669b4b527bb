// GET /eudr-reports/summary/: the tenant's EUDR readiness (plots by verdict and warning, per area and agent, by month).
import { useQuery } from '@tanstack/react-query';
import type { EudrReadinessSummary } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export const getReadinessSummary = (signal?: AbortSignal) => api<Envelope<EudrReadinessSummary>>('/eudr-reports/summary/', signal ? { signal } : {});

export function useReadinessSummary() {
  return useQuery({ queryKey: queryKeys.eudrReports.summary, queryFn: ({ signal }) => getReadinessSummary(signal) });
}
