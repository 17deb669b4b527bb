// POST /operational-areas/ (create) and PUT /operational-areas/{id}/ (edit): name, region_id, city_id and the drawn
// polygon as [lng, lat] pairs. Errors are shown in the map popup by the modal, so the notifier stays silent here.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OperationalArea, operationalAreaBody } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope, In } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

type OperationalAreaBody = In<typeof operationalAreaBody>;

export const saveOperationalArea = (id: string | null, body: OperationalAreaBody) =>
  api<Envelope<OperationalArea>>(id ? `/operational-areas/${id}/` : '/operational-areas/', { method: id ? 'PUT' : 'POST', body });

export function useSaveOperationalArea() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: OperationalAreaBody }) => saveOperationalArea(id, body),
    meta: { silent: true },
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.operationalAreas.all }),
  });
}
