// GET /farmers/: one page of the tenant's farmers (search, is_mapped, region), 10 a page (docs/requirements.md §9), with the number of
// farms, the total farm size and the mapped status.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Farmer } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope, ListPage } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export const FARMERS_PAGE_SIZE = 10;
export type FarmersParams = {
  page: number;
  page_size: number;
  search?: string | undefined;
  is_mapped?: 'true' | 'false' | undefined;
  region?: string | undefined;
};

export const getFarmers = (params: FarmersParams, signal?: AbortSignal) =>
  api<Envelope<ListPage<Farmer>>>('/farmers/', { query: params, ...(signal ? { signal } : {}) });

export const farmersQuery = (params: FarmersParams) =>
  queryOptions({ queryKey: queryKeys.farmers.page(params), queryFn: ({ signal }) => getFarmers(params, signal), placeholderData: keepPreviousData });

export function useFarmers(params: FarmersParams) {
  return useQuery(farmersQuery(params));
}
