import type { Plan, PlanConfiguration, PlanSubscribers } from '@contract/plans';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '../../components/ui/use-toast';
import { apiRequest, getJson } from '../../lib/api-client';
import { errorMessage } from '../../lib/api-error';
import { ADMIN_POLL_INTERVAL_MS } from '../../lib/constants';
import { plansQuery } from '../../lib/subscriptions/plans';
import { planConfigurationPayload } from './plan-editing';

export const PLAN_CONFIGURATION_PATH = '/api/admin/tier-configuration';

export const planConfigurationQuery = () =>
  queryOptions({ queryKey: [PLAN_CONFIGURATION_PATH], queryFn: getJson<PlanConfiguration> });
export const usePlanConfiguration = () => useQuery(planConfigurationQuery());

export const planSubscribersQuery = (tierId: string) =>
  queryOptions({
    queryKey: [`/api/admin/tier-subscribers/${encodeURIComponent(tierId)}`],
    queryFn: getJson<PlanSubscribers>,
  });

/** The subscriber badge of a tier, read again every 30 seconds. */
export const usePlanSubscribers = (tierId: string) =>
  useQuery({ ...planSubscribersQuery(tierId), refetchInterval: ADMIN_POLL_INTERVAL_MS });

/** Save Configuration: on success the admin's and the public tier lists are read again. */
export function useSavePlanConfiguration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ tiers, trialDays }: { tiers: Plan[]; trialDays: number }) =>
      apiRequest<PlanConfiguration>('PUT', PLAN_CONFIGURATION_PATH, planConfigurationPayload(tiers, trialDays)),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: planConfigurationQuery().queryKey }),
        queryClient.invalidateQueries({ queryKey: plansQuery().queryKey }),
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
