// GET /base/all-countries/ (Create Region's searchable country select) and GET /base/countries/{id}/cities/?search=
// (the area form's City / Town / District, searched by name prefix).
import { useQuery } from '@tanstack/react-query';
import type { cityRef, countryRef } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope, Out } from '../../../lib/contract-types';

export type Country = Out<typeof countryRef>;
export type City = Out<typeof cityRef>;

export function useCountries(enabled: boolean) {
  return useQuery({ queryKey: ['countries'], queryFn: ({ signal }) => api<Envelope<Country[]>>('/base/all-countries/', { signal }), enabled, staleTime: Infinity });
}

export function useCities(countryId: string | undefined, search: string) {
  return useQuery({
    queryKey: ['cities', countryId, search],
    queryFn: ({ signal }) => api<Envelope<City[]>>(`/base/countries/${countryId}/cities/`, { query: { search }, signal }),
    enabled: Boolean(countryId),
    staleTime: 60_000,
  });
}
