// GET /farms/overview: totals (all farms, overlapping...); the Farmlands map uses the total to choose GeoJSON or tiles.
import { useQuery } from '@tanstack/react-query';
import type { farmsOverview } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope, Out } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export const getFarmsOverview = (signal?: AbortSignal) => api<Envelope<Out<typeof farmsOverview>>>('/farms/overview', signal ? { signal } : {});

export function useFarmsOverview() {
  return useQuery({ queryKey: queryKeys.farms.overview, queryFn: ({ signal }) => getFarmsOverview(signal) });
}
