// GET /farms/{id}/overlaps/: a farm's overlaps with the other farms of its tenant, each measured, slivers included
// (issue 28). Under the farms key: whatever refreshes the farms (a capture, Retain, a new tolerance) refreshes it.
import { useQuery } from '@tanstack/react-query';
import type { FarmOverlap } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export const getFarmOverlaps = (id: string, signal?: AbortSignal) => api<Envelope<FarmOverlap[]>>(`/farms/${id}/overlaps/`, signal ? { signal } : {});

export function useFarmOverlaps(id: string | null) {
  return useQuery({ queryKey: [...queryKeys.farms.all, 'overlaps', id] as const, queryFn: ({ signal }) => getFarmOverlaps(id!, signal), enabled: Boolean(id) });
}
