// POST /farmers/ (Create Single) and PUT /farmers/{id}/ (Edit Farmer) as multipart, with an optional photo in "image".
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Farmer } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export type FarmerFields = {
  first_name: string;
  last_name: string;
  email?: string | undefined;
  phone_number?: string | undefined;
  gender?: 'Male' | 'Female' | undefined;
  address?: string | undefined;
  location?: string | undefined;
  folio_id?: string | undefined;
  region_id?: string | undefined;
};

export function farmerForm(fields: FarmerFields, image: File | null): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) if (typeof v === 'string' && v.trim() !== '') form.append(k, v.trim());
  if (image) form.append('image', image, image.name);
  return form;
}

export const saveFarmer = (id: string | null, fields: FarmerFields, image: File | null) =>
  api<Envelope<Farmer>>(id ? `/farmers/${id}/` : '/farmers/', { method: id ? 'PUT' : 'POST', form: farmerForm(fields, image) });

export function useSaveFarmer() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, fields, image }: { id: string | null; fields: FarmerFields; image: File | null }) => saveFarmer(id, fields, image),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: queryKeys.farmers.all });
      void client.invalidateQueries({ queryKey: queryKeys.analytics.all });
    },
  });
}
