// GET /reference-layers/: the layers the tenant may screen an analysis against (the provider's and its own). The upload
// wizard offers those with a version in use (a replacement still loading keeps the earlier version usable).
import { useQuery } from '@tanstack/react-query';
import type { ReferenceLayer } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

/** Layers an analysis can use: a complete version in use. */
export const usableLayers = (layers: readonly ReferenceLayer[]) => layers.filter((l) => l.version > 0);

export function useReferenceLayerOptions(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.analyses.referenceLayers,
    queryFn: ({ signal }) => api<Envelope<ReferenceLayer[]>>('/reference-layers/', { signal }),
    select: (res) => usableLayers(res.data),
    enabled,
  });
}
