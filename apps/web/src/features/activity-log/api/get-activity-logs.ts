// GET /activity-logs/: the activity log with search, action and date-range filters (page size 30 by default, docs/requirements.md §9).
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ActivityAction, ActivityEntry } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope, ListPage } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export const ACTIVITY_PAGE_SIZE = 30;

export type ActivityLogParams = {
  page: number;
  page_size: number;
  search?: string | undefined;
  action?: ActivityAction | undefined;
  date_after?: string | undefined;
  date_before?: string | undefined;
};

export const getActivityLogs = (params: ActivityLogParams, signal?: AbortSignal) =>
  api<Envelope<ListPage<ActivityEntry>>>('/activity-logs/', { query: params, ...(signal ? { signal } : {}) });

export const activityLogsQuery = (params: ActivityLogParams) =>
  queryOptions({
    queryKey: queryKeys.activityLogs.page(params),
    queryFn: ({ signal }) => getActivityLogs(params, signal),
    placeholderData: keepPreviousData,
  });

export function useActivityLogs(params: ActivityLogParams) {
  return useQuery(activityLogsQuery(params));
}
