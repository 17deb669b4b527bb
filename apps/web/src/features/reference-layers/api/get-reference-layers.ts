// GET /reference-layers/ (tenant: its own and the provider's) or /base/reference-layers/ (provider): every layer, newest
// first, as one array (layers are few: tens, not thousands). Polls every 2 s while a layer's job is running, so its
// status and progress move without a reload.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ReferenceLayer } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';
import { layersBase, RUNNING_STATUSES, type LayerScope } from './layer-scope';

export type LayersParams = { kind?: string | undefined; owner?: string | undefined };

export const LAYER_POLL_MS = 2000;

export const getReferenceLayers = (scope: LayerScope, params: LayersParams, signal?: AbortSignal) =>
  api<Envelope<ReferenceLayer[]>>(layersBase(scope), { query: params, ...(signal ? { signal } : {}) });

export const referenceLayersQuery = (scope: LayerScope, params: LayersParams) =>
  queryOptions({
    queryKey: queryKeys.referenceLayers.list(scope, params),
    queryFn: ({ signal }) => getReferenceLayers(scope, params, signal),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.data.some((l) => RUNNING_STATUSES.has(l.status)) ? LAYER_POLL_MS : false),
  });

export function useReferenceLayers(scope: LayerScope, params: LayersParams) {
  return useQuery(referenceLayersQuery(scope, params));
}
