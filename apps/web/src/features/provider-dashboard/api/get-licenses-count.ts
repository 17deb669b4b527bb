// GET /analytics/licenses-count/: licenses by derived status (Active, Expired, Revoked) and by type.
import { useQuery } from '@tanstack/react-query';
import type { LicensesCount } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export const getLicensesCount = (signal?: AbortSignal) => api<Envelope<LicensesCount>>('/analytics/licenses-count/', signal ? { signal } : {});

export function useLicensesCount() {
  return useQuery({ queryKey: queryKeys.analytics.provider('licenses-count'), queryFn: ({ signal }) => getLicensesCount(signal) });
}
