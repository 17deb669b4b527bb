// GET /farms/{id}/overlapping/: the farms of a farm's overlap group, itself included (the Overlapping Farmlands drawer).
import { useQuery } from '@tanstack/react-query';
import type { Farm } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope, ListPage } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export const getOverlappingFarms = (id: string, signal?: AbortSignal) =>
  api<Envelope<ListPage<Farm>>>(`/farms/${id}/overlapping/`, { query: { page_size: 100 }, ...(signal ? { signal } : {}) });

export function useOverlappingFarms(id: string | null) {
  return useQuery({ queryKey: queryKeys.farms.overlapping(id), queryFn: ({ signal }) => getOverlappingFarms(id!, signal), enabled: Boolean(id) });
}
