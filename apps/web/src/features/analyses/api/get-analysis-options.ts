// What the analysis drawers offer: the tenant's operational areas (filtered by region and search), its regions, and
// its configuration (the endpoint upload's minimum land size is prefilled from minimum_farm_size).
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OperationalArea, TenantConfiguration } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope, ListPage } from '../../../lib/contract-types';

export type AreaFilter = { region?: string | undefined; search?: string | undefined };

/** Every area that matches (pages of 100; tenants have tens of areas, not thousands). */
export async function getAreaChoices(filter: AreaFilter, signal?: AbortSignal): Promise<OperationalArea[]> {
  const all: OperationalArea[] = [];
  for (let page = 1; page <= 50; page++) {
    const res = await api<Envelope<ListPage<OperationalArea>>>('/operational-areas/', { query: { page, page_size: 100, region: filter.region, search: filter.search }, ...(signal ? { signal } : {}) });
    all.push(...res.data.results);
    if (!res.data.next) break;
  }
  return all;
}

export function useAreaChoices(filter: AreaFilter, enabled: boolean) {
  return useQuery(queryOptions({ queryKey: ['operational-areas', 'choices', filter], queryFn: ({ signal }) => getAreaChoices(filter, signal), enabled }));
}

export type RegionChoice = { id: string; name: string };

export function useRegionChoices(enabled: boolean) {
  return useQuery({
    queryKey: ['regions'],
    queryFn: ({ signal }) => api<Envelope<ListPage<RegionChoice>>>('/base/regions/', { query: { page_size: 100 }, signal }),
    enabled,
  });
}

export function useTenantConfiguration(enabled: boolean) {
  return useQuery({
    queryKey: ['tenant-configuration'],
    queryFn: ({ signal }) => api<Envelope<TenantConfiguration>>('/base/tenant-configurations', { signal }),
    enabled,
  });
}
