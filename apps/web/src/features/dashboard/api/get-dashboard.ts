// The tenant dashboard's reads: GET /analytics/ (counts), GET /analytics/tenant-mapped-count/ (the Total Mapped chart),
// GET /base/licenses/ (the license card: the organisation's own licenses, latest issued first), GET /farms/categorized-by-state (Most Mapped Area) and
// GET /analytics/agent-ranking/ (Agent Ranking: every agent ranked on the server) and GET /accounts/agents/ (the agents card).
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Agent, AgentRanking, AnalyticsCounts, License, MappedCount } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope, ListPage, Out } from '../../../lib/contract-types';
import { countriesQuery, statesQuery } from '../../../lib/lookups';
import type { farmsPerCountry, farmsPerState } from '@farmland/contracts';
import { queryKeys } from '../../../lib/query-keys';

export type RangeKey = '1Y' | '6M' | '30D' | '7D';
/** Spec §9: 1 year (12 months), 6 months, 30 days, 7 days. */
export const RANGES: Record<RangeKey, { range_type: MappedCount['range_type']; range_value: number }> = {
  '1Y': { range_type: 'months', range_value: 12 },
  '6M': { range_type: 'months', range_value: 6 },
  '30D': { range_type: 'days', range_value: 30 },
  '7D': { range_type: 'days', range_value: 7 },
};

export function useAnalyticsCounts() {
  return useQuery({ queryKey: queryKeys.analytics.counts, queryFn: ({ signal }) => api<Envelope<AnalyticsCounts>>('/analytics/', { signal }) });
}

export function useMappedCount(range: RangeKey) {
  return useQuery({
    queryKey: queryKeys.analytics.mapped(range),
    queryFn: ({ signal }) => api<Envelope<MappedCount>>('/analytics/tenant-mapped-count/', { query: RANGES[range], signal }),
    placeholderData: keepPreviousData,
  });
}

/** The organisation's licenses (docs/requirements.md §7: GET /base/licenses/ for the dashboard license card); the first is the current. */
export function useLicenses() {
  return useQuery({
    queryKey: queryKeys.licenses.own,
    queryFn: ({ signal }) => api<Envelope<ListPage<License>>>('/base/licenses/', { query: { page: 1, page_size: 20 }, signal }),
  });
}

export type StateCount = Out<typeof farmsPerState>[number];
export function useFarmsPerState() {
  return useQuery({ queryKey: queryKeys.farms.perState, queryFn: ({ signal }) => api<Envelope<StateCount[]>>('/farms/categorized-by-state', { signal }) });
}

/** The agents card: the newest five agents and the count. */
export function useDashboardAgents() {
  return useQuery({
    queryKey: queryKeys.agents.dashboard,
    queryFn: ({ signal }) => api<Envelope<ListPage<Agent>>>('/accounts/agents/', { query: { page: 1, page_size: 5 }, signal }),
  });
}

export const RANKING_SIZE = 10;
/** Agent Ranking: the top 10 of all the tenant's agents by farms mapped, then area, ranked by the server. */
export function useAgentRanking() {
  return useQuery({
    queryKey: queryKeys.agents.ranking,
    queryFn: ({ signal }) => api<Envelope<AgentRanking>>('/analytics/agent-ranking/', { query: { limit: RANKING_SIZE }, signal }),
  });
}

export type CountryFarms = Out<typeof farmsPerCountry>[number];
export function useFarmsPerCountry(enabled: boolean) {
  return useQuery({ queryKey: queryKeys.farms.global, queryFn: ({ signal }) => api<Envelope<CountryFarms[]>>('/farms/global', { signal }), enabled });
}

export type StatePlace = { code: string; name: string; total_farms: number; latitude: number | null; longitude: number | null };
/** A country's states with their farms (GET /farms/regional) and centroids (GET /base/states/{country id}/). */
export function useStatesOf(countryCode: string, countryName: string, enabled: boolean) {
  const client = useQueryClient();
  return useQuery({
    queryKey: queryKeys.farms.regional(countryCode),
    enabled,
    queryFn: async ({ signal }): Promise<StatePlace[]> => {
      // The countries and states come through the shared lookups (lib/lookups.ts), so they are read once.
      const countries = await client.fetchQuery(countriesQuery());
      const country = countries.data.find((c) => c.country_code === countryCode);
      if (!country) return [];
      const [farms, states] = await Promise.all([
        api<Envelope<StateCount[]>>('/farms/regional', { query: { name: countryName }, signal }),
        client.fetchQuery(statesQuery(country.id)),
      ]);
      const where = new Map(states.data.map((s) => [s.code, s]));
      return farms.data.map((f) => ({ ...f, latitude: where.get(f.code)?.latitude ?? null, longitude: where.get(f.code)?.longitude ?? null }));
    },
  });
}
