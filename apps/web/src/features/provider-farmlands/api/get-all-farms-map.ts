// GET /farms/?all=true as provider staff: every tenant's farms (or one tenant's) as GeoJSON for the map, capped by the
// API at 20,000; above the tile threshold the map reads vector tiles instead and this is not called.
import { useQuery } from '@tanstack/react-query';
import type { farmFeatureCollection } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope, Out } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export type AllFarmsCollection = Out<typeof farmFeatureCollection>;

export const getAllFarmsMap = (filter: { search?: string | undefined; tenant_id?: string | undefined }, signal?: AbortSignal) =>
  api<Envelope<AllFarmsCollection>>('/farms/', { query: { all: true, ...filter }, ...(signal ? { signal } : {}) });

export function useAllFarmsMap(filter: { search?: string | undefined; tenant_id?: string | undefined }, enabled: boolean) {
  return useQuery({ queryKey: queryKeys.farms.provider.map(filter), queryFn: ({ signal }) => getAllFarmsMap(filter, signal), enabled, staleTime: 30_000 });
}
