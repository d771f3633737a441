import type { SubscriptionStatus } from '../../src/contract/subscriptions.js';
import { statusMessages } from '../../src/server/features/subscriptions/subscription-status.js';

type TrialFigure = 'trialDaysLeft' | 'trialHoursLeft' | 'trialExpiredDaysAgo';

/** The full status a seller outside a trial is answered (no trial started, an admin, a paid or stopped subscription): every trial figure is null. */
export function statusOutsideTrial(status: Omit<SubscriptionStatus, TrialFigure>): SubscriptionStatus {
  return { ...status, trialDaysLeft: null, trialHoursLeft: null, trialExpiredDaysAgo: null };
}

/** The full status on the day a seller starts a 14-day trial of the growth tier, ending at `expiresAt` (ISO). */
export function growthTrialFirstDayStatus(expiresAt: string): SubscriptionStatus {
  return {
    subscriptionStatus: 'trial',
    hasAccess: true,
    hasSubscription: true,
    trialDaysLeft: 14,
    trialHoursLeft: 336,
    trialExpiredDaysAgo: null,
    selectedTier: 'growth',
    message: 'Your free trial ends in 14 days.',
    tier: 'growth',
    status: 'trial',
    expiresAt,
  };
}

/** The full status of a seller who has not picked a tier yet, the one remembered from sign-in preselected. */
export function tierSelectionRequiredStatus(selectedTier: string | null): SubscriptionStatus {
  return statusOutsideTrial({
    subscriptionStatus: 'tier_selection_required',
    hasAccess: false,
    hasSubscription: false,
    selectedTier,
    message: statusMessages.tierSelectionRequired,
    tier: null,
    status: null,
    expiresAt: null,
  });
}
