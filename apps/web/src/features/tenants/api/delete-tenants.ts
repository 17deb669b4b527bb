// POST /base/tenants/delete/ with the selected uuids: all or nothing on the server.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { MessageEnvelope } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export const deleteTenants = (uuids: string[]) => api<MessageEnvelope>('/base/tenants/delete/', { method: 'POST', body: { uuids } });

export function useDeleteTenants() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteTenants,
    onSuccess: () =>
      Promise.all([client.invalidateQueries({ queryKey: queryKeys.tenants.all }), client.invalidateQueries({ queryKey: queryKeys.licenses.all })]),
  });
}
