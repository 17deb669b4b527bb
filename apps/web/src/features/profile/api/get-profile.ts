// GET /accounts/users/{id}/: the current user's profile (the response is read from data).
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UserProfile } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

/** The profile's key, from the console's key factory. */
export const profileKey = queryKeys.profile;

export const getProfile = (id: string, signal?: AbortSignal) => api<Envelope<UserProfile>>(`/accounts/users/${id}/`, signal ? { signal } : {});

export const profileQuery = (id: string) => queryOptions({ queryKey: profileKey(id), queryFn: ({ signal }) => getProfile(id, signal) });

export function useProfile(id: string) {
  return useQuery(profileQuery(id));
}
