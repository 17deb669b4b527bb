// GET /analytics/mapping-ranking/?year=: tenants ranked by farms mapped in the year.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { MappingRanking } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export const getMappingRanking = (year: number, signal?: AbortSignal) =>
  api<Envelope<MappingRanking>>('/analytics/mapping-ranking/', { query: { year }, ...(signal ? { signal } : {}) });

export function useMappingRanking(year: number) {
  return useQuery({
    queryKey: queryKeys.analytics.provider('mapping-ranking', year),
    queryFn: ({ signal }) => getMappingRanking(year, signal),
    placeholderData: keepPreviousData,
  });
}
