// The console's lookups, fetched by one set of hooks with one set of keys (lib/query-keys.ts): countries, a country's
// states and cities, the tenant's regions and its operational areas. Filters, forms and wizards of every feature use
// these, so a list read by two screens is read once.
//   GET /base/all-countries/, GET /base/states/{country}/, GET /base/countries/{country}/cities/?search=,
//   GET /base/regions/ (one page of 100: tenants have tens), GET /operational-areas/?region&search (pages of 100).
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { cityRef, countryRef, OperationalArea, region, stateRef } from '@farmland/contracts';
import { api } from './api-client';
import type { Envelope, ListPage, Out } from './contract-types';
import { queryKeys } from './query-keys';

export type Country = Out<typeof countryRef>;
export type State = Out<typeof stateRef>;
export type City = Out<typeof cityRef>;
export type Region = Out<typeof region>;
export type AreaFilter = { region?: string | undefined; search?: string | undefined };

const LOOKUP_STALE_MS = 60_000;

/** GET /base/all-countries/: every country (also read through a query client: the dashboard's state map). */
export const countriesQuery = () =>
  queryOptions({
    queryKey: queryKeys.lookups.countries,
    queryFn: ({ signal }) => api<Envelope<Country[]>>('/base/all-countries/', { signal }),
    staleTime: Infinity,
  });

export function useCountries(enabled = true) {
  return useQuery({ ...countriesQuery(), enabled });
}

/** GET /base/states/{country}/: a country's states with their centroids. */
export const statesQuery = (countryId: string) =>
  queryOptions({
    queryKey: queryKeys.lookups.states(countryId),
    queryFn: ({ signal }) => api<Envelope<State[]>>(`/base/states/${countryId}/`, { signal }),
    staleTime: Infinity,
  });

export function useStates(countryId: string | undefined) {
  return useQuery({ ...statesQuery(countryId ?? ''), enabled: Boolean(countryId) });
}

/** A country's cities whose name starts with the search (searched on the server); the last answer shows while typing. */
export function useCities(countryId: string | undefined, search: string) {
  return useQuery({
    queryKey: queryKeys.lookups.cities(countryId ?? '', search),
    queryFn: ({ signal }) => api<Envelope<City[]>>(`/base/countries/${countryId}/cities/`, { query: { search }, signal }),
    enabled: Boolean(countryId),
    staleTime: LOOKUP_STALE_MS,
    placeholderData: keepPreviousData,
  });
}

export const getRegions = (signal?: AbortSignal) =>
  api<Envelope<ListPage<Region>>>('/base/regions/', { query: { page_size: 100 }, ...(signal ? { signal } : {}) });

export function useRegions(enabled = true) {
  return useQuery({ queryKey: queryKeys.lookups.regions, queryFn: ({ signal }) => getRegions(signal), enabled, staleTime: LOOKUP_STALE_MS });
}

/** Every operational area that matches (pages of 100; tenants have tens of areas, not thousands). */
export async function getAreaChoices(filter: AreaFilter, signal?: AbortSignal): Promise<OperationalArea[]> {
  const all: OperationalArea[] = [];
  for (let page = 1; page <= 50; page++) {
    const res = await api<Envelope<ListPage<OperationalArea>>>('/operational-areas/', {
      query: { page, page_size: 100, region: filter.region, search: filter.search },
      ...(signal ? { signal } : {}),
    });
    all.push(...res.data.results);
    if (!res.data.next) break;
  }
  return all;
}

/** The operational areas a filter, a form or a wizard offers, within a region and matching a search when given. */
export function useOperationalAreaOptions(filter: AreaFilter = {}, enabled = true) {
  const key = { region: filter.region ?? '', search: filter.search ?? '' };
  return useQuery({
    queryKey: queryKeys.operationalAreas.choices(key),
    queryFn: ({ signal }) => getAreaChoices(filter, signal),
    enabled,
    staleTime: LOOKUP_STALE_MS,
  });
}
