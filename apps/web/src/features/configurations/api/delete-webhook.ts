// DELETE /webhooks/{id}/: removes an endpoint and its delivery log.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { MessageEnvelope } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export function useDeleteWebhook() {
  const client = useQueryClient();
  // Errors are shown by the caller (field errors beside the field), not by the global notifier as well.
  return useMutation({
    meta: { silent: true },
    mutationFn: (id: string) => api<MessageEnvelope>(`/webhooks/${id}/`, { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.webhooks.all }),
  });
}
