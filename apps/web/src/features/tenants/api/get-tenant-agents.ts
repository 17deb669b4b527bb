// GET /accounts/agents/?tenant_id=: one tenant's agents for the provider's agents drawer (docs/requirements.md §2 "Agents drawer"),
// searched (debounced by the list page) and paged, 10 a page (docs/requirements.md §9).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Agent } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope, ListPage } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export const TENANT_AGENTS_PAGE_SIZE = 10;
export type TenantAgentsParams = { tenant_id: string; page: number; page_size: number; search?: string | undefined };

export function useTenantAgents(params: TenantAgentsParams, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.agents.ofTenant(params),
    queryFn: ({ signal }) => api<Envelope<ListPage<Agent>>>('/accounts/agents/', { query: params, signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}
