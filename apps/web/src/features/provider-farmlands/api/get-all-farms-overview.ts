// GET /farms/overview as provider staff: the totals of every tenant's farms (or one tenant's): all, within and outside the
// operational areas, overlapping, unrecognized (flagged).
import { useQuery } from '@tanstack/react-query';
import type { farmsOverview } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope, Out } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export type FarmsOverview = Out<typeof farmsOverview>;

export const getAllFarmsOverview = (tenantId: string | undefined, signal?: AbortSignal) =>
  api<Envelope<FarmsOverview>>('/farms/overview', { query: { tenant_id: tenantId }, ...(signal ? { signal } : {}) });

export function useAllFarmsOverview(tenantId: string | undefined) {
  return useQuery({ queryKey: queryKeys.farms.provider.overview(tenantId ?? ''), queryFn: ({ signal }) => getAllFarmsOverview(tenantId, signal) });
}
