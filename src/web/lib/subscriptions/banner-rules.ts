import type { SubscriptionStatus } from '@contract/subscriptions';
import { TRIAL_URGENT_DAYS, TRIAL_WARNING_DAYS } from '../constants';

export type TrialUrgency = 'urgent' | 'warning' | 'normal';

/** Urgent when one day or less is left, warning at three or less (spec seller-app §4). */
export function trialUrgency(trialDaysLeft: number | null | undefined): TrialUrgency {
  const days = trialDaysLeft ?? 0;
  if (days <= TRIAL_URGENT_DAYS) return 'urgent';
  if (days <= TRIAL_WARNING_DAYS) return 'warning';
  return 'normal';
}

/** 'N days remaining' above one day, 'N hours remaining' above one hour, else 'Less than 1 hour remaining'. */
export function trialRemainingText(
  trialDaysLeft: number | null | undefined,
  trialHoursLeft: number | null | undefined,
) {
  const days = trialDaysLeft ?? 0;
  const hours = trialHoursLeft ?? 0;
  if (days > 1) return `${days} days remaining`;
  if (hours > 1) return `${hours} hours remaining`;
  return 'Less than 1 hour remaining';
}

/** The expired banner's title for trial_expired, inactive and expired sellers. */
export function expiredBannerTitle(
  status: Pick<SubscriptionStatus, 'subscriptionStatus' | 'trialExpiredDaysAgo'>,
): string {
  if (status.subscriptionStatus !== 'trial_expired') return 'Subscription Required';
  const daysAgo = status.trialExpiredDaysAgo ?? 0;
  if (daysAgo === 1) return 'Free trial expired yesterday';
  if (daysAgo > 1) return `Free trial expired ${daysAgo} days ago`;
  return 'Free Trial Expired';
}

export type BannerKind = 'trial' | 'expired' | 'none';

/**
 * Which banner a signed-in user sees: admins, active sellers and sellers still choosing a tier see none;
 * trial_expired, inactive and expired sellers keep using the app under the expired banner.
 */
export function bannerKind(
  user: { userType: 'seller' | 'admin' } | null | undefined,
  status: Pick<SubscriptionStatus, 'subscriptionStatus'> | null | undefined,
): BannerKind {
  if (!user || user.userType === 'admin' || !status) return 'none';
  switch (status.subscriptionStatus) {
    case 'trial':
      return 'trial';
    case 'trial_expired':
    case 'inactive':
    case 'expired':
      return 'expired';
    default:
      return 'none';
  }
}
