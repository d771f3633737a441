import { useCurrentUser } from '../current-user';
import { type CallToAction, callToAction } from './call-to-action';
import { trialDaysOf, usePlans } from './plans';
import { useSubscriptionStatus } from './subscription-status';

/** The call to action for the visitor's state (spec seller-app §2), with the tier for signing in. */
export function useCallToAction(tierId?: string): CallToAction {
  const { data: user } = useCurrentUser();
  const { data: status } = useSubscriptionStatus();
  const { data: tiers } = usePlans();
  return callToAction({
    user,
    subscriptionStatus: status?.subscriptionStatus,
    trialDays: trialDaysOf(tiers),
    tierId,
  });
}
