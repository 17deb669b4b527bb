// GET /farmers/{id}/farms/{farmId}/: one farm of the farmer (the farm drawer: points, size, area, snapshots).
import { useQuery } from '@tanstack/react-query';
import type { Farm } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export function useFarmerFarm(farmerId: string | null, farmId: string | null) {
  return useQuery({
    queryKey: queryKeys.farmers.farm(farmerId, farmId),
    queryFn: ({ signal }) => api<Envelope<Farm>>(`/farmers/${farmerId}/farms/${farmId}/`, { signal }),
    enabled: Boolean(farmerId && farmId),
  });
}
