// POST /webhooks/: registers an endpoint; the answer carries the signing secret, shown once.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateWebhookBody, WebhookEndpointWithSecret } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export function useCreateWebhook() {
  const client = useQueryClient();
  // Errors are shown by the caller (field errors beside the field), not by the global notifier as well.
  return useMutation({
    meta: { silent: true },
    mutationFn: (body: CreateWebhookBody) => api<Envelope<WebhookEndpointWithSecret>>('/webhooks/', { method: 'POST', body }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.webhooks.all }),
  });
}
