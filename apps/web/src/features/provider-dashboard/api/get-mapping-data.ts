// GET /analytics/mapping-data/?year=: farms mapped per month of the year over every tenant (the dashboard's chart).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { MappingData } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export const getMappingData = (year: number, signal?: AbortSignal) =>
  api<Envelope<MappingData>>('/analytics/mapping-data/', { query: { year }, ...(signal ? { signal } : {}) });

export function useMappingData(year: number) {
  return useQuery({
    queryKey: queryKeys.analytics.provider('mapping-data', year),
    queryFn: ({ signal }) => getMappingData(year, signal),
    placeholderData: keepPreviousData,
  });
}
