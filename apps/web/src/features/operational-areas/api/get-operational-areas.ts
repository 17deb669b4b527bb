// GET /operational-areas/: the tenant's areas (search, region, page; 10 a page, docs/requirements.md §9), and all of them for the map.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { OperationalArea } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope, ListPage } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export const AREAS_PAGE_SIZE = 10;
export type AreasParams = { page: number; page_size: number; search?: string | undefined; region?: string | undefined };

export const getOperationalAreas = (params: AreasParams, signal?: AbortSignal) =>
  api<Envelope<ListPage<OperationalArea>>>('/operational-areas/', { query: params, ...(signal ? { signal } : {}) });

export const operationalAreasQuery = (params: AreasParams) =>
  queryOptions({
    queryKey: queryKeys.operationalAreas.page(params),
    queryFn: ({ signal }) => getOperationalAreas(params, signal),
    placeholderData: keepPreviousData,
  });

export function useOperationalAreas(params: AreasParams) {
  return useQuery(operationalAreasQuery(params));
}

/** Every area for the map (pages of 100 until done; tenants have tens of areas, not thousands). */
export async function getAllOperationalAreas(signal?: AbortSignal): Promise<OperationalArea[]> {
  const all: OperationalArea[] = [];
  for (let page = 1; page <= 50; page++) {
    const res = await getOperationalAreas({ page, page_size: 100 }, signal);
    all.push(...res.data.results);
    if (!res.data.next) break;
  }
  return all;
}

export function useAllOperationalAreas() {
  return useQuery({ queryKey: queryKeys.operationalAreas.every, queryFn: ({ signal }) => getAllOperationalAreas(signal) });
}
