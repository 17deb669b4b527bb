// GET /accounts/agents/: one page of the tenant's agents (search, region, operational area), 10 a page (docs/requirements.md §9), with
// farmers, mapped farms, area mapped and progress.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Agent } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope, ListPage } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export const AGENTS_PAGE_SIZE = 10;
export type AgentsParams = { page: number; page_size: number; search?: string | undefined; region?: string | undefined; operational_area?: string | undefined };

export const getAgents = (params: AgentsParams, signal?: AbortSignal) =>
  api<Envelope<ListPage<Agent>>>('/accounts/agents/', { query: params, ...(signal ? { signal } : {}) });

export const agentsQuery = (params: AgentsParams) =>
  queryOptions({ queryKey: queryKeys.agents.page(params), queryFn: ({ signal }) => getAgents(params, signal), placeholderData: keepPreviousData });

export function useAgents(params: AgentsParams) {
  return useQuery(agentsQuery(params));
}
