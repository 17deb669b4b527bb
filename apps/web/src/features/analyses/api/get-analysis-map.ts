// GET /custom-analysis/{id}/map/: the result map's rows (at most 20,000; with bbox, those in view).
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AnalysisMap } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export type Bbox = [number, number, number, number];

export const getAnalysisMap = (id: string, bbox: Bbox | null, signal?: AbortSignal) =>
  api<Envelope<AnalysisMap>>(`/custom-analysis/${id}/map/`, {
    query: bbox ? { bbox: bbox.map((v) => v.toFixed(5)).join(',') } : {},
    ...(signal ? { signal } : {}),
  });

export const analysisMapQuery = (id: string, bbox: Bbox | null, enabled: boolean) =>
  queryOptions({
    queryKey: queryKeys.analyses.map(id, bbox),
    queryFn: ({ signal }) => getAnalysisMap(id, bbox, signal),
    placeholderData: keepPreviousData,
    enabled,
  });

export function useAnalysisMap(id: string, bbox: Bbox | null, enabled: boolean) {
  return useQuery(analysisMapQuery(id, bbox, enabled));
}
