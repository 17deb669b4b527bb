// GET /custom-analysis/{id}/: status, totals, the five categories and the failed rows. Polled while the analysis runs.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AnalysisDetail } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export const getAnalysis = (id: string, signal?: AbortSignal) => api<Envelope<AnalysisDetail>>(`/custom-analysis/${id}/`, signal ? { signal } : {});

export const analysisQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.analyses.one(id),
    queryFn: ({ signal }) => getAnalysis(id, signal),
    refetchInterval: (q) => (q.state.data && (q.state.data.data.status === 'queued' || q.state.data.data.status === 'processing') ? 1500 : false),
  });

export function useAnalysis(id: string) {
  return useQuery(analysisQuery(id));
}
