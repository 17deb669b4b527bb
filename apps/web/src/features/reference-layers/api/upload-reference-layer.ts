// POST /reference-layers/ (a new layer) and POST /reference-layers/{id}/replace/ (a new file for a layer, and optionally
// new details), multipart: the file in "file" and the details as fields. Both answer 202: the layer loads in the
// background. The lists (and every farm's screening) are refreshed afterwards.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReferenceLayer } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';
import { layersBase, type LayerScope } from './layer-scope';

export type LayerDetailsInput = { name: string; kind: string; reference_date: string; source: string; licence: string; name_field?: string | undefined };

export type LayerUpload = { scope: LayerScope; file: File; details: Partial<LayerDetailsInput>; replaceId?: string | undefined };

export function uploadReferenceLayer({ scope, file, details, replaceId }: LayerUpload) {
  const form = new FormData();
  for (const [k, v] of Object.entries(details)) if (typeof v === 'string' && v.trim() !== '') form.append(k, v.trim());
  // The file last: the API reads the fields first, then streams the file to disk.
  form.append('file', file, file.name);
  const url = replaceId ? `${layersBase(scope)}${replaceId}/replace/` : layersBase(scope);
  return api<Envelope<ReferenceLayer>>(url, { method: 'POST', form });
}

export function useUploadReferenceLayer() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: uploadReferenceLayer,
    // The drawer places field errors beside their fields and sends the rest to the notifier itself.
    meta: { silent: true },
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.referenceLayers.all }),
  });
}
