// GET /custom-analysis/: the tenant's past analyses (name, rows, total area, status), searchable, 10 a page (docs/requirements.md §9).
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AnalysisSummary } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope, ListPage } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export const ANALYSES_PAGE_SIZE = 10;

export type AnalysesParams = { page: number; page_size: number; search?: string | undefined };

export const getAnalyses = (params: AnalysesParams, signal?: AbortSignal) =>
  api<Envelope<ListPage<AnalysisSummary>>>('/custom-analysis/', { query: params, ...(signal ? { signal } : {}) });

export const analysesQuery = (params: AnalysesParams) =>
  queryOptions({
    queryKey: queryKeys.analyses.page(params),
    queryFn: ({ signal }) => getAnalyses(params, signal),
    placeholderData: keepPreviousData,
    // While an analysis is queued or processing, poll so that its status and totals arrive without a reload.
    refetchInterval: (q) => (q.state.data?.data.results.some((a) => a.status === 'queued' || a.status === 'processing') ? 2000 : false),
  });

export function useAnalyses(params: AnalysesParams) {
  return useQuery(analysesQuery(params));
}
