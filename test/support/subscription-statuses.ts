import type { SubscriptionStatus } from '../../src/contract/subscriptions.js';

type TrialFigure = 'trialDaysLeft' | 'trialHoursLeft' | 'trialExpiredDaysAgo';

/** The full status a seller outside a trial is answered (no trial started, an admin, a paid or stopped subscription): every trial figure is null. */
export function statusOutsideTrial(status: Omit<SubscriptionStatus, TrialFigure>): SubscriptionStatus {
  return { ...status, trialDaysLeft: null, trialHoursLeft: null, trialExpiredDaysAgo: null };
}
