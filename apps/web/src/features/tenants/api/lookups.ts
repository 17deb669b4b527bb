// The tenant form's lookups: GET /base/all-countries/, GET /base/states/{country id}/ and
// GET /base/countries/{id}/cities/?search= (cities depend on the country and are searched on the server).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { cityRef, countryRef, stateRef } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope, Out } from '../../../lib/contract-types';

export type Country = Out<typeof countryRef>;
export type State = Out<typeof stateRef>;
export type City = Out<typeof cityRef>;

export function useCountries(enabled: boolean) {
  return useQuery({ queryKey: ['countries'], queryFn: ({ signal }) => api<Envelope<Country[]>>('/base/all-countries/', { signal }), enabled, staleTime: Infinity });
}

export function useStates(countryId: string | undefined) {
  return useQuery({ queryKey: ['states', countryId], queryFn: ({ signal }) => api<Envelope<State[]>>(`/base/states/${countryId}/`, { signal }), enabled: Boolean(countryId), staleTime: Infinity });
}

export function useCities(countryId: string | undefined, search: string) {
  return useQuery({
    queryKey: ['cities', countryId, search],
    queryFn: ({ signal }) => api<Envelope<City[]>>(`/base/countries/${countryId}/cities/`, { query: { search }, signal }),
    enabled: Boolean(countryId),
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
}
