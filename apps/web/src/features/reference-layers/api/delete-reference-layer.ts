// DELETE /reference-layers/{id}/ (or the provider's): removes a layer, its features and every farm's figures against it.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { MessageEnvelope } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';
import { layersBase, type LayerScope } from './layer-scope';

export const deleteReferenceLayer = (scope: LayerScope, id: string) => api<MessageEnvelope>(`${layersBase(scope)}${id}/`, { method: 'DELETE' });

export function useDeleteReferenceLayer() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ scope, id }: { scope: LayerScope; id: string }) => deleteReferenceLayer(scope, id),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.referenceLayers.all }),
  });
}
