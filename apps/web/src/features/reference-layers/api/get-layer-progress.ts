// GET /reference-layers/{id}/progress/ (or the provider's): the running job's status, progress, features read and its
// error with the feature number. The upload drawer polls it every second until the layer is ready or failed.
import { useQuery } from '@tanstack/react-query';
import type { ReferenceLayerProgress } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';
import { layersBase, RUNNING_STATUSES, type LayerScope } from './layer-scope';

export const PROGRESS_POLL_MS = 1000;

export const getLayerProgress = (scope: LayerScope, id: string, signal?: AbortSignal) =>
  api<Envelope<ReferenceLayerProgress>>(`${layersBase(scope)}${id}/progress/`, signal ? { signal } : {});

export function useLayerProgress(scope: LayerScope, id: string | null) {
  return useQuery({
    queryKey: queryKeys.referenceLayers.progress(scope, id),
    queryFn: ({ signal }) => getLayerProgress(scope, id!, signal),
    enabled: Boolean(id),
    refetchInterval: (q) => (!q.state.data || RUNNING_STATUSES.has(q.state.data.data.status) ? PROGRESS_POLL_MS : false),
  });
}
