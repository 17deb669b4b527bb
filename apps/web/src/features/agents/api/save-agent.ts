// POST /accounts/agents/ (create) and PUT /accounts/agents/{id}/ (edit, only the fields sent change) as multipart, with
// an optional photo in "image". Field errors are put on the wizard's fields by the caller and toasted here.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Agent } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export type AgentFields = {
  first_name: string;
  last_name: string;
  email: string;
  phone_number: string;
  gender?: 'Male' | 'Female' | undefined;
  operational_area_id?: string | undefined;
};

export function agentForm(fields: AgentFields, image: File | null): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) if (typeof v === 'string') form.append(k, v.trim());
  if (image) form.append('image', image, image.name);
  return form;
}

export const saveAgent = (id: string | null, fields: AgentFields, image: File | null) =>
  api<Envelope<Agent>>(id ? `/accounts/agents/${id}/` : '/accounts/agents/', { method: id ? 'PUT' : 'POST', form: agentForm(fields, image) });

export function useSaveAgent() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, fields, image }: { id: string | null; fields: AgentFields; image: File | null }) => saveAgent(id, fields, image),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: queryKeys.agents.all });
      void client.invalidateQueries({ queryKey: queryKeys.analytics.all });
    },
  });
}
