// GET /accounts/agents/{id}/: one agent with its ten latest captures (the agent drawer, and the edit wizard's values).
import { useQuery } from '@tanstack/react-query';
import type { AgentDetail } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export const getAgent = (id: string, signal?: AbortSignal) => api<Envelope<AgentDetail>>(`/accounts/agents/${id}/`, signal ? { signal } : {});

export function useAgent(id: string | null) {
  return useQuery({ queryKey: queryKeys.agents.detail(id), queryFn: ({ signal }) => getAgent(id!, signal), enabled: Boolean(id) });
}
