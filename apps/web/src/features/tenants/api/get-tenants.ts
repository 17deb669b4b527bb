// GET /base/tenants/: the tenants list with search, license type and status filters, 20 a page (docs/requirements.md §9), each row with
// its license merged in.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Envelope, ListPage } from '../../../lib/contract-types';
import type { LicenseType, TenantListItem, TenantStatus } from './tenant-types';
import { queryKeys } from '../../../lib/query-keys';

export const TENANTS_PAGE_SIZE = 20;

export type TenantsParams = {
  page: number;
  page_size: number;
  search?: string | undefined;
  license_type?: LicenseType | undefined;
  /** The displayed status (the API's shortcut over is_active and is_suspended, so Inactive excludes suspended tenants). */
  status?: TenantStatus | undefined;
};

export const getTenants = (params: TenantsParams, signal?: AbortSignal) =>
  api<Envelope<ListPage<TenantListItem>>>('/base/tenants/', { query: params, ...(signal ? { signal } : {}) });

export function useTenants(params: TenantsParams) {
  return useQuery({ queryKey: queryKeys.tenants.page(params), queryFn: ({ signal }) => getTenants(params, signal), placeholderData: keepPreviousData });
}
