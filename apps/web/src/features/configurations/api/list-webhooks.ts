// GET /webhooks/: the tenant's webhook endpoints (tenant admins only).
import { useQuery } from '@tanstack/react-query';
import type { WebhookEndpoint } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export function useWebhooks() {
  return useQuery({ queryKey: queryKeys.webhooks.list, queryFn: ({ signal }) => api<Envelope<WebhookEndpoint[]>>('/webhooks/', { signal }) });
}
