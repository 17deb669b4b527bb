// GET /custom-analysis/{id}/{within|outside|overlapping|unrecognized|errors}/: a result list, a page at a time (the
// overlapping list is ordered by overlapping_id, so a page holds whole groups or their beginnings).
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AnalysisFarm, AnalysisListKind } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope, ListPage } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export const RESULT_PAGE_SIZE = 20;

export const getAnalysisFarms = (id: string, kind: AnalysisListKind, page: number, pageSize: number, signal?: AbortSignal) =>
  api<Envelope<ListPage<AnalysisFarm>>>(`/custom-analysis/${id}/${kind}/`, { query: { page, page_size: pageSize }, ...(signal ? { signal } : {}) });

export const analysisFarmsQuery = (id: string, kind: AnalysisListKind, page: number, pageSize = RESULT_PAGE_SIZE) =>
  queryOptions({
    queryKey: queryKeys.analyses.farms(id, kind, page, pageSize),
    queryFn: ({ signal }) => getAnalysisFarms(id, kind, page, pageSize, signal),
    placeholderData: keepPreviousData,
  });

export function useAnalysisFarms(id: string, kind: AnalysisListKind | null, page: number, pageSize = RESULT_PAGE_SIZE) {
  return useQuery({ ...analysisFarmsQuery(id, kind ?? 'within', page, pageSize), enabled: kind !== null });
}
