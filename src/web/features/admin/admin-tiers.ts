import type { PricingTier, TierConfiguration, TierSubscribers } from '@contract/tiers';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '../../components/ui/use-toast';
import { apiRequest, getJson } from '../../lib/api-client';
import { errorMessage } from '../../lib/api-error';
import { ADMIN_POLL_INTERVAL_MS } from '../../lib/constants';
import { pricingTiersQuery } from '../../lib/subscriptions/pricing-tiers';
import { tierConfigurationPayload } from './tier-editing';

export const TIER_CONFIGURATION_PATH = '/api/admin/tier-configuration';

export const tierConfigurationQuery = () =>
  queryOptions({ queryKey: [TIER_CONFIGURATION_PATH], queryFn: getJson<TierConfiguration> });
export const useTierConfiguration = () => useQuery(tierConfigurationQuery());

export const tierSubscribersQuery = (tierId: string) =>
  queryOptions({
    queryKey: [`/api/admin/tier-subscribers/${encodeURIComponent(tierId)}`],
    queryFn: getJson<TierSubscribers>,
  });

/** The subscriber badge of a tier, read again every 30 seconds. */
export const useTierSubscribers = (tierId: string) =>
  useQuery({ ...tierSubscribersQuery(tierId), refetchInterval: ADMIN_POLL_INTERVAL_MS });

/** Save Configuration: on success the admin's and the public tier lists are read again. */
export function useSaveTierConfiguration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ tiers, trialDays }: { tiers: PricingTier[]; trialDays: number }) =>
      apiRequest<TierConfiguration>('PUT', TIER_CONFIGURATION_PATH, tierConfigurationPayload(tiers, trialDays)),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: tierConfigurationQuery().queryKey }),
        queryClient.invalidateQueries({ queryKey: pricingTiersQuery().queryKey }),
      ]);
    },
    onError: (error) =>
      toast({
        variant: 'destructive',
        title: 'Error',
        description: errorMessage(error, 'Failed to save tier configuration'),
      }),
  });
}
