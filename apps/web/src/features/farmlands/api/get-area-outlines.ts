// GET /operational-areas/ (pages of 100): the tenant's areas as outlines for the Farmlands map (issue 33, item 17).
import { useQuery } from '@tanstack/react-query';
import type { OperationalArea } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope, ListPage } from '../../../lib/contract-types';
import type { AreaOutline } from '../../../components/map/area-outlines';
import { queryKeys } from '../../../lib/query-keys';

async function getAreaOutlines(signal: AbortSignal): Promise<AreaOutline[]> {
  const all: AreaOutline[] = [];
  for (let page = 1; page <= 50; page++) {
    const res = await api<Envelope<ListPage<OperationalArea>>>('/operational-areas/', { query: { page, page_size: 100 }, signal });
    for (const a of res.data.results) all.push({ id: a.id, name: a.name, ring: a.coordinates });
    if (!res.data.next) break;
  }
  return all;
}

export function useAreaOutlines() {
  return useQuery({ queryKey: queryKeys.operationalAreas.outlines, queryFn: ({ signal }) => getAreaOutlines(signal), staleTime: 60_000 });
}
