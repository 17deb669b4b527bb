// GET /farms/: one page of the tenant's farms (search, region, operational area), 10 a page (docs/requirements.md §9).
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Farm } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope, ListPage } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export const FARMS_PAGE_SIZE = 10;
export type FarmsParams = { page: number; page_size: number; search?: string | undefined; region?: string | undefined; operational_area?: string | undefined };

export const getFarms = (params: FarmsParams, signal?: AbortSignal) =>
  api<Envelope<ListPage<Farm>>>('/farms/', { query: params, ...(signal ? { signal } : {}) });

export const farmsQuery = (params: FarmsParams) =>
  queryOptions({ queryKey: queryKeys.farms.page(params), queryFn: ({ signal }) => getFarms(params, signal), placeholderData: keepPreviousData });

export function useFarms(params: FarmsParams) {
  return useQuery(farmsQuery(params));
}
