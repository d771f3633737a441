import { QueryClient } from '@tanstack/react-query';
import { getJson } from './api-client';

/**
 * Default data queries GET their first key element, never retry, never refetch on their own and never go
 * stale (spec seller-app §7); a query that needs otherwise says so where it is defined.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getJson,
        retry: false,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        staleTime: Number.POSITIVE_INFINITY,
      },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();
