// The single-count analytics (docs/requirements.md §7): GET /analytics/tenants-count/, agents-count/, farms-count/,
// operational-areas-count/, mapped-farms-count/ and unmapped-farms-count/, each { count } over every tenant.
import { useQuery } from '@tanstack/react-query';
import type { CountResult } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export type CountName = 'tenants-count' | 'agents-count' | 'farms-count' | 'operational-areas-count' | 'mapped-farms-count' | 'unmapped-farms-count';

export const getCount = (name: CountName, signal?: AbortSignal) => api<Envelope<CountResult>>(`/analytics/${name}/`, signal ? { signal } : {});

export function useCount(name: CountName) {
  return useQuery({ queryKey: queryKeys.analytics.provider(name), queryFn: ({ signal }) => getCount(name, signal) });
}
