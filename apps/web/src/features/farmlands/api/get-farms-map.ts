// GET /farms/?all=true: every farm of the tenant as a GeoJSON FeatureCollection for the map (capped by the API at 20,000;
// above the tile threshold the map reads vector tiles instead and this is not called).
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { farmFeatureCollection } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope, Out } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export type FarmCollection = Out<typeof farmFeatureCollection>;

/** The list's narrowing, applied to the map too: search, region and operational area. */
export type FarmsMapFilter = { search?: string | undefined; region?: string | undefined; operational_area?: string | undefined };

export const getFarmsMap = (f: FarmsMapFilter, signal?: AbortSignal) =>
  api<Envelope<FarmCollection>>('/farms/', { query: { all: true, ...f }, ...(signal ? { signal } : {}) });

export const farmsMapQuery = (f: FarmsMapFilter, enabled: boolean) =>
  queryOptions({
    queryKey: queryKeys.farms.map({ search: f.search ?? '', region: f.region ?? '', operational_area: f.operational_area ?? '' }),
    queryFn: ({ signal }) => getFarmsMap(f, signal),
    enabled,
    staleTime: 30_000,
  });

export function useFarmsMap(f: FarmsMapFilter, enabled = true) {
  return useQuery(farmsMapQuery(f, enabled));
}
