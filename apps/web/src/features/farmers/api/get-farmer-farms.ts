// GET /farmers/{id}/farms/: a farmer's farms for the drawer's 'Mapped Farmland' (list cards and map). A farmer has a
// handful of farms: the first 100 are read in one page, and the drawer says when there are more.
import { useQuery } from '@tanstack/react-query';
import type { Farm } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope, ListPage } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export const FARMER_FARMS_LIMIT = 100;

export function useFarmerFarms(farmerId: string | null) {
  return useQuery({
    queryKey: queryKeys.farmers.farms(farmerId),
    queryFn: ({ signal }) => api<Envelope<ListPage<Farm>>>(`/farmers/${farmerId}/farms/`, { query: { page: 1, page_size: FARMER_FARMS_LIMIT }, signal }),
    enabled: Boolean(farmerId),
  });
}
