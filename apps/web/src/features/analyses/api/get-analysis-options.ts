// What the endpoint upload drawer reads besides the lookups (lib/lookups.ts): the tenant's configuration, whose
// minimum_farm_size prefills the minimum land size.
import { useQuery } from '@tanstack/react-query';
import type { TenantConfiguration } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export function useTenantConfiguration(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.tenantConfiguration,
    queryFn: ({ signal }) => api<Envelope<TenantConfiguration>>('/base/tenant-configurations', { signal }),
    enabled,
  });
}
