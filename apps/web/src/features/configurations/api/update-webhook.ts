// PATCH /webhooks/{id}/: enable or disable an endpoint (or change its URL, events, description).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateWebhookBody, WebhookEndpoint } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export function useUpdateWebhook() {
  const client = useQueryClient();
  // Errors are shown by the caller (field errors beside the field), not by the global notifier as well.
  return useMutation({
    meta: { silent: true },
    mutationFn: ({ id, body }: { id: string; body: UpdateWebhookBody }) => api<Envelope<WebhookEndpoint>>(`/webhooks/${id}/`, { method: 'PATCH', body }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.webhooks.all }),
  });
}
