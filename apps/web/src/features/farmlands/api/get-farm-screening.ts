// GET /farms/{id}/screening/: the farm's overlap with each reference layer in use (m², share) and its EUDR plot-risk
// verdict with the reasons; GET /farms/{id}/screening/evidence/: the layer features that meet the farm, as GeoJSON for
// the drawer's map. Keys under reference-layers, so a layer upload, replacement or threshold change refreshes them.
import { useQuery } from '@tanstack/react-query';
import type { FarmScreening, ScreeningEvidence } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export const getFarmScreening = (id: string, signal?: AbortSignal) => api<Envelope<FarmScreening>>(`/farms/${id}/screening/`, signal ? { signal } : {});
export const getFarmEvidence = (id: string, signal?: AbortSignal) =>
  api<Envelope<ScreeningEvidence>>(`/farms/${id}/screening/evidence/`, signal ? { signal } : {});

/** While a layer is still being screened (pending layers), ask again every 3 s until the verdict is complete. */
export const SCREENING_POLL_MS = 3000;

export function useFarmScreening(id: string | null) {
  return useQuery({
    queryKey: queryKeys.referenceLayers.screening(id),
    queryFn: ({ signal }) => getFarmScreening(id!, signal),
    enabled: Boolean(id),
    refetchInterval: (q) => (q.state.data?.data.pending_layers.length ? SCREENING_POLL_MS : false),
  });
}

export function useFarmEvidence(id: string | null) {
  return useQuery({ queryKey: queryKeys.referenceLayers.evidence(id), queryFn: ({ signal }) => getFarmEvidence(id!, signal), enabled: Boolean(id) });
}
