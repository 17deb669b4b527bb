// GET /farms/ as provider staff: one page of every tenant's farms (or one tenant's with tenant_id), 10 a page (docs/requirements.md §9).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Farm } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope, ListPage } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export const ALL_FARMS_PAGE_SIZE = 10;
export type AllFarmsParams = { page: number; page_size: number; search?: string | undefined; tenant_id?: string | undefined };

export const getAllFarms = (params: AllFarmsParams, signal?: AbortSignal) =>
  api<Envelope<ListPage<Farm>>>('/farms/', { query: params, ...(signal ? { signal } : {}) });

export function useAllFarms(params: AllFarmsParams) {
  return useQuery({ queryKey: queryKeys.farms.provider.page(params), queryFn: ({ signal }) => getAllFarms(params, signal), placeholderData: keepPreviousData });
}
