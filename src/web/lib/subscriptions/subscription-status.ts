import type { SubscriptionStatus } from '@contract/subscriptions';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '../api-client';
import { SUBSCRIPTION_STATUS_GC_MS, SUBSCRIPTION_STATUS_STALE_MS } from '../constants';
import { useCurrentUser } from '../current-user';
import { shouldRetryStatusQuery, statusQueryRetryDelay } from './status-retry';

export type { SubscriptionStatus };

export const SUBSCRIPTION_STATUS_PATH = '/api/platform-subscription/status';

export const subscriptionStatusQuery = () =>
  queryOptions({
    queryKey: [SUBSCRIPTION_STATUS_PATH],
    queryFn: getJson<SubscriptionStatus>,
    retry: shouldRetryStatusQuery,
    retryDelay: statusQueryRetryDelay,
    staleTime: SUBSCRIPTION_STATUS_STALE_MS,
    gcTime: SUBSCRIPTION_STATUS_GC_MS,
  });

/** The signed-in user's platform subscription; not fetched while signed out. */
export function useSubscriptionStatus() {
  const { data: user } = useCurrentUser();
  return useQuery({ ...subscriptionStatusQuery(), enabled: Boolean(user) });
}
