// GET /base/licenses/: every tenant's licenses with search (tenant name or key), status, type and issued date, 10 a page
// (docs/requirements.md §9).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { License, LicenseStatus, LicenseType } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope, ListPage } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export const LICENSES_PAGE_SIZE = 10;

export type LicensesParams = {
  page: number;
  page_size: number;
  search?: string | undefined;
  status?: LicenseStatus | undefined;
  type?: LicenseType | undefined;
  issued_date?: string | undefined;
};

export const getLicenses = (params: LicensesParams, signal?: AbortSignal) =>
  api<Envelope<ListPage<License>>>('/base/licenses/', { query: params, ...(signal ? { signal } : {}) });

export function useLicenses(params: LicensesParams) {
  return useQuery({ queryKey: queryKeys.licenses.page(params), queryFn: ({ signal }) => getLicenses(params, signal), placeholderData: keepPreviousData });
}
