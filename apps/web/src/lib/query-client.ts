// The TanStack Query client: every failed query or mutation goes to the one notifier, unless its meta says it
// handles the error itself (sign-in steps that show their own messages).
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';
import { notifyError } from './notifier';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: { silent?: boolean };
    mutationMeta: { silent?: boolean };
  }
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: (error, query) => (query.meta?.silent ? undefined : notifyError(error)) }),
    mutationCache: new MutationCache({ onError: (error, _v, _c, mutation) => (mutation.meta?.silent ? undefined : notifyError(error)) }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        // Client errors will not change on a retry; a dropped connection may.
        retry: (count, error) => !(error instanceof ApiError) && count < 1,
      },
      mutations: { retry: false },
    },
  });
}
