// GET /farms/?all=true: every farm of the tenant as a GeoJSON FeatureCollection for the map (capped by the API at 20,000;
// above the tile threshold the map reads vector tiles instead and this is not called).
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { farmFeatureCollection } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope, Out } from '../../../lib/contract-types';

export type FarmCollection = Out<typeof farmFeatureCollection>;

export const getFarmsMap = (search: string | undefined, signal?: AbortSignal) =>
  api<Envelope<FarmCollection>>('/farms/', { query: { all: true, search }, ...(signal ? { signal } : {}) });

export const farmsMapQuery = (search: string | undefined, enabled: boolean) =>
  queryOptions({ queryKey: ['farms', 'map', search ?? ''], queryFn: ({ signal }) => getFarmsMap(search, signal), enabled, staleTime: 30_000 });

export function useFarmsMap(search: string | undefined, enabled = true) {
  return useQuery(farmsMapQuery(search, enabled));
}
