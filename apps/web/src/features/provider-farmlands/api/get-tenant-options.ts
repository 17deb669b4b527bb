// GET /base/tenants/?search=: the tenants offered by the Farmlands tenant picker (names searched on the server, 50 at a
// time).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TenantListItem } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope, ListPage } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

/** Only the fields the picker reads. */
export type TenantOption = Pick<TenantListItem, 'id' | 'name'>;

export const getTenantOptions = (search: string, signal?: AbortSignal) =>
  api<Envelope<ListPage<TenantOption>>>('/base/tenants/', { query: { search, page: 1, page_size: 50 }, ...(signal ? { signal } : {}) });

export function useTenantOptions(search: string) {
  return useQuery({
    queryKey: queryKeys.tenants.options(search),
    queryFn: ({ signal }) => getTenantOptions(search, signal),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}
