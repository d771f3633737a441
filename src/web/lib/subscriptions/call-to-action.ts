import type { SubscriptionStatusValue } from '@contract/subscriptions';
import { signInHref } from '../sign-in';

export type CallToAction = {
  label: string;
  href: string;
  /** A server route (sign-in): the browser must load it, not the client router. */
  isServerRoute: boolean;
};

export const trialButtonLabel = (trialDays: number) => `Start ${trialDays}-Day Free Trial`;

/**
 * The call to action by state (spec seller-app §2): signed out → trial sign-in with the tier; admins and
 * sellers with access → dashboard; sellers choosing a tier → the trial button to the dashboard; sellers
 * without access → Subscribe Now.
 */
export function callToAction(state: {
  user: { userType: 'seller' | 'admin' } | null | undefined;
  subscriptionStatus: SubscriptionStatusValue | null | undefined;
  trialDays: number;
  tierId?: string;
}): CallToAction {
  const trialLabel = trialButtonLabel(state.trialDays);
  if (!state.user) return { label: trialLabel, href: signInHref(state.tierId), isServerRoute: true };
  const toDashboard = { label: 'Go to Dashboard', href: '/dashboard', isServerRoute: false };
  if (state.user.userType === 'admin') return toDashboard;
  switch (state.subscriptionStatus) {
    case 'tier_selection_required':
      return { label: trialLabel, href: '/dashboard', isServerRoute: false };
    case 'trial_expired':
    case 'inactive':
    case 'expired':
      return { label: 'Subscribe Now', href: '/subscribe', isServerRoute: false };
    default:
      return toDashboard;
  }
}
