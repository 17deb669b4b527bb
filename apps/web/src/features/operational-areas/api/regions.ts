// POST /base/regions/: the Create Region modal. The regions are read through lib/lookups.ts.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { createRegionBody } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope, In } from '../../../lib/contract-types';
import type { Region } from '../../../lib/lookups';
import { queryKeys } from '../../../lib/query-keys';

export const createRegion = (body: In<typeof createRegionBody>) => api<Envelope<Region>>('/base/regions/', { method: 'POST', body });

export function useCreateRegion() {
  const client = useQueryClient();
  return useMutation({ mutationFn: createRegion, onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.lookups.regions }) });
}
