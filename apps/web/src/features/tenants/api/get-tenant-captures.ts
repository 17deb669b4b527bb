// GET /farms/?tenant_id=: a tenant's captures (its farms with their mapping records) on the details page, page 1 of 10
// to start (docs/requirements.md §9).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Farm } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope, ListPage } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export const CAPTURES_PAGE_SIZE = 10;
export type CapturesParams = { tenant_id: string; page: number; page_size: number; search?: string | undefined };

export const getTenantCaptures = (params: CapturesParams, signal?: AbortSignal) =>
  api<Envelope<ListPage<Farm>>>('/farms/', { query: params, ...(signal ? { signal } : {}) });

export function useTenantCaptures(params: CapturesParams) {
  return useQuery({
    queryKey: queryKeys.farms.ofTenant(params),
    queryFn: ({ signal }) => getTenantCaptures(params, signal),
    placeholderData: keepPreviousData,
  });
}
