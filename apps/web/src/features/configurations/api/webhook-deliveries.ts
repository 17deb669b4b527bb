// GET /webhooks/{id}/deliveries/: an endpoint's delivery log, newest first; refreshed while a delivery is still due.
import { useQuery } from '@tanstack/react-query';
import type { WebhookDelivery } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope, ListPage } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export function useWebhookDeliveries(endpointId: string | null, page: number) {
  return useQuery({
    queryKey: queryKeys.webhooks.deliveries(endpointId, { page }),
    queryFn: ({ signal }) => api<Envelope<ListPage<WebhookDelivery>>>(`/webhooks/${endpointId}/deliveries/`, { signal, query: { page, page_size: 20 } }),
    enabled: !!endpointId,
    // Pending and sending deliveries change on their own (the job): the open log follows them.
    refetchInterval: (q) => (q.state.data?.data.results.some((d) => d.status === 'pending' || d.status === 'sending') ? 2000 : false),
  });
}
