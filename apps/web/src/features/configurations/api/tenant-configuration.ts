// GET and PUT /base/tenant-configurations: the tenant's minimum farm size (sqm), recognition threshold (0 < t ≤ 1) and
// overlap tolerance (minimum overlap area in sqm, minimum share of the smaller farm 0–1).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TenantConfiguration } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope } from '../../../lib/contract-types';

export const CONFIGURATION_KEY = ['tenant-configuration'] as const;

export function useConfiguration() {
  return useQuery({ queryKey: CONFIGURATION_KEY, queryFn: ({ signal }) => api<Envelope<TenantConfiguration>>('/base/tenant-configurations', { signal }) });
}

export type ConfigurationChange = { minimum_farm_size?: number; recognition_threshold?: number; overlap_min_area_sqm?: number; overlap_min_share?: number };

export function useSaveConfiguration() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ConfigurationChange) => api<Envelope<TenantConfiguration>>('/base/tenant-configurations', { method: 'PUT', body }),
    onSuccess: (res) => client.setQueryData(CONFIGURATION_KEY, res),
  });
}
