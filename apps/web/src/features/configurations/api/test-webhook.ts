// POST /webhooks/{id}/test/: queues a webhook.test event for one endpoint (it shows in the delivery log).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Envelope } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export function useTestWebhook() {
  const client = useQueryClient();
  // Errors are shown by the caller (field errors beside the field), not by the global notifier as well.
  return useMutation({
    meta: { silent: true },
    mutationFn: (id: string) => api<Envelope<{ event_id: string }>>(`/webhooks/${id}/test/`, { method: 'POST' }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.webhooks.all }),
  });
}
