// GET /eudr-reports/due-diligence/?area_id= | ?farm_ids=: the printable due-diligence report's data.
import { useQuery } from '@tanstack/react-query';
import type { DueDiligenceReport } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export type DueDiligenceChoice = { area_id: string } | { farm_ids: string };

export const getDueDiligence = (choice: DueDiligenceChoice, signal?: AbortSignal) =>
  api<Envelope<DueDiligenceReport>>('/eudr-reports/due-diligence/', { query: choice, ...(signal ? { signal } : {}) });

export function useDueDiligence(choice: DueDiligenceChoice | null) {
  return useQuery({
    queryKey: queryKeys.eudrReports.dueDiligence(choice ?? {}),
    queryFn: ({ signal }) => getDueDiligence(choice!, signal),
    enabled: choice !== null,
    retry: false,
  });
}
