// POST /custom-analysis/: a file as multipart (file, name, description, repeated operational_areas and reference_layer_ids, name_field), or the endpoint
// upload's JSON (locations merged with the drawers' values). The report list refreshes afterwards.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AnalysisDetail, CreateAnalysisBody } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

/** nameField: a GIS file's feature property that names each farm (sent only when set; the API's defaults otherwise). */
/** referenceLayerIds: the EUDR reference layers to screen each row against (issue 29; none: no verdict). */
export type AnalysisOptions = {
  name: string;
  description: string;
  operationalAreas: readonly string[];
  nameField?: string;
  referenceLayerIds?: readonly string[];
};

export function createAnalysisFromFile(file: File, o: AnalysisOptions) {
  const form = new FormData();
  form.append('file', file, file.name);
  if (o.name) form.append('name', o.name);
  if (o.description) form.append('description', o.description);
  if (o.nameField) form.append('name_field', o.nameField);
  for (const id of o.operationalAreas) form.append('operational_areas', id);
  for (const id of o.referenceLayerIds ?? []) form.append('reference_layer_ids', id);
  return api<Envelope<AnalysisDetail>>('/custom-analysis/', { method: 'POST', form });
}

export const createAnalysisFromJson = (body: CreateAnalysisBody) => api<Envelope<AnalysisDetail>>('/custom-analysis/', { method: 'POST', body });

export function useCreateAnalysis() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { kind: 'file'; file: File; options: AnalysisOptions } | { kind: 'json'; body: CreateAnalysisBody }) =>
      input.kind === 'file' ? createAnalysisFromFile(input.file, input.options) : createAnalysisFromJson(input.body),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.analyses.all }),
  });
}
