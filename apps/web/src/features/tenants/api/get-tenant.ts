// GET /base/tenants/{id}: one tenant with its admin and license (the details page, and the Edit wizard's values).
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Envelope } from '../../../lib/contract-types';
import type { Tenant } from './tenant-types';
import { queryKeys } from '../../../lib/query-keys';

export const getTenant = (id: string, signal?: AbortSignal) => api<Envelope<Tenant>>(`/base/tenants/${encodeURIComponent(id)}`, signal ? { signal } : {});

export function useTenant(id: string | null | undefined) {
  return useQuery({ queryKey: queryKeys.tenants.one(id), queryFn: ({ signal }) => getTenant(id!, signal), enabled: Boolean(id) });
}
