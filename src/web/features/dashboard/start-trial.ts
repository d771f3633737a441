import type { StartTrialResponse } from '@contract/subscriptions';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { SELECT_TIER_MESSAGE } from '../../../contract/subscriptions';
import { toast } from '../../components/ui/use-toast';
import { apiRequest } from '../../lib/api-client';
import { errorMessage } from '../../lib/api-error';
import { TRIAL_START_RELOAD_DELAY_MS } from '../../lib/constants';

export const START_TRIAL_PATH = '/api/platform-subscription/start-trial';

/**
 * Starts the free trial on the chosen tier, then reloads the page after 1 s so that every part of the app
 * sees the new status (spec seller-app §4). `pendingTier` stays set until the reload.
 */
export function useStartTrial() {
  const [pendingTier, setPendingTier] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: async (tier: string | undefined) => {
      if (!tier) throw new Error(SELECT_TIER_MESSAGE);
      return apiRequest<StartTrialResponse>('POST', START_TRIAL_PATH, { tier });
    },
    onMutate: (tier) => setPendingTier(tier ?? null),
    onSuccess: (response) => {
      toast({ title: 'Free Trial Started', description: response?.message });
      setTimeout(() => window.location.reload(), TRIAL_START_RELOAD_DELAY_MS);
    },
    onError: (error) => {
      setPendingTier(null);
      toast({
        variant: 'destructive',
        title: 'Error',
        description: errorMessage(error, 'Failed to start your free trial. Please try again.'),
      });
    },
  });
  return { startTrial: (tier: string | undefined) => mutation.mutate(tier), pendingTier };
}
