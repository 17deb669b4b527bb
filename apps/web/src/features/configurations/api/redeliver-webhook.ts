// POST /webhooks/{id}/deliveries/{deliveryId}/redeliver/: sends a delivery again (a new attempt).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WebhookDelivery } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export function useRedeliverWebhook() {
  const client = useQueryClient();
  // Errors are shown by the caller (field errors beside the field), not by the global notifier as well.
  return useMutation({
    meta: { silent: true },
    mutationFn: ({ endpointId, deliveryId }: { endpointId: string; deliveryId: string }) =>
      api<Envelope<WebhookDelivery>>(`/webhooks/${endpointId}/deliveries/${deliveryId}/redeliver/`, { method: 'POST' }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.webhooks.all }),
  });
}
