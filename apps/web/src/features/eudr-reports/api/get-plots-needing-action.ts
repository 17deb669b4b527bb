// GET /eudr-reports/plots/: the plots needing action (verdict review or high, or a geolocation warning), paged.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { EudrPlot } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope, ListPage } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export const PLOTS_EXPORT_PATH = '/eudr-reports/plots/export/';

export type PlotsParams = { page: number; page_size: number } & Record<string, string | number>;

export const getPlotsNeedingAction = (params: PlotsParams, signal?: AbortSignal) =>
  api<Envelope<ListPage<EudrPlot>>>('/eudr-reports/plots/', { query: params, ...(signal ? { signal } : {}) });

export function usePlotsNeedingAction(params: PlotsParams) {
  return useQuery({
    queryKey: queryKeys.eudrReports.plots(params),
    queryFn: ({ signal }) => getPlotsNeedingAction(params, signal),
    placeholderData: keepPreviousData,
  });
}
