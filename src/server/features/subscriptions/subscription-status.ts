import type { SubscriptionStatus } from '../../../contract/subscriptions.js';
import type { platformSubscriptions, users } from '../../db/schema/index.js';
import { DAY_MS, HOUR_MS } from '../../lib/clock.js';

export type StatusUser = Pick<typeof users.$inferSelect, 'userType' | 'selectedTier'>;
export type StatusSubscription = Pick<
  typeof platformSubscriptions.$inferSelect,
  'status' | 'tierId' | 'trialEndsAt' | 'currentPeriodEnd' | 'cancelAtPeriodEnd'
>;

export const statusMessages = {
  admin: 'You have administrator access: every feature is available without a subscription.',
  tierSelectionRequired: 'Please select a subscription tier to start your free trial.',
  trialExpired: 'Your free trial has expired. Subscribe to keep using Packgate.',
  active: 'Your subscription is active.',
  activeEnding: 'Your subscription is active until the end of the current billing period and will not renew.',
  inactive:
    'Your subscription is inactive because a payment did not go through. Update your payment details or subscribe again.',
  expired: 'Your subscription has expired. Subscribe again to keep using Packgate.',
} as const;

function trialMessage(daysLeft: number, hoursLeft: number): string {
  if (daysLeft > 1) return `Your free trial ends in ${daysLeft} days.`;
  if (hoursLeft > 1) return `Your free trial ends in ${hoursLeft} hours.`;
  return 'Your free trial ends in less than an hour.';
}

const iso = (date: Date | null | undefined): string | null => (date ? date.toISOString() : null);

/**
 * The seller's platform subscription as the app sees it at `now` (spec seller-app §3 and §4).
 * Pure: trial expiry is decided here, from the stored end, so no job has to flip a flag.
 */
export function computeSubscriptionStatus(
  user: StatusUser,
  subscription: StatusSubscription | undefined,
  now: Date,
): SubscriptionStatus {
  const base = {
    trialDaysLeft: null,
    trialHoursLeft: null,
    trialExpiredDaysAgo: null,
    selectedTier: subscription?.tierId ?? user.selectedTier ?? null,
    tier: subscription?.tierId ?? null,
    status: subscription?.status ?? null,
    expiresAt: null,
  } satisfies Partial<SubscriptionStatus>;

  // Admins run the platform; a plan or trial of their own would mean nothing.
  if (user.userType === 'admin') {
    return {
      ...base,
      subscriptionStatus: 'active',
      hasAccess: true,
      hasSubscription: true,
      message: statusMessages.admin,
    };
  }

  if (!subscription) {
    return {
      ...base,
      subscriptionStatus: 'tier_selection_required',
      hasAccess: false,
      hasSubscription: false,
      message: statusMessages.tierSelectionRequired,
    };
  }

  switch (subscription.status) {
    case 'trial': {
      // A trial row without an end cannot be running; treat it as over rather than endless.
      const endsAt = subscription.trialEndsAt;
      const remainingMs = endsAt ? endsAt.getTime() - now.getTime() : 0;
      if (remainingMs > 0) {
        const trialDaysLeft = Math.ceil(remainingMs / DAY_MS);
        const trialHoursLeft = Math.ceil(remainingMs / HOUR_MS);
        return {
          ...base,
          subscriptionStatus: 'trial',
          hasAccess: true,
          hasSubscription: true,
          trialDaysLeft,
          trialHoursLeft,
          expiresAt: iso(endsAt),
          message: trialMessage(trialDaysLeft, trialHoursLeft),
        };
      }
      return {
        ...base,
        subscriptionStatus: 'trial_expired',
        hasAccess: false,
        hasSubscription: true,
        trialDaysLeft: 0,
        trialHoursLeft: 0,
        trialExpiredDaysAgo: Math.floor(Math.max(0, -remainingMs) / DAY_MS),
        expiresAt: iso(endsAt),
        message: statusMessages.trialExpired,
      };
    }
    case 'active': {
      // A period cancelled at its end is over once it ends, even before the provider's event says so (and
      // with billing off no event ever comes).
      const periodEnd = subscription.currentPeriodEnd;
      if (subscription.cancelAtPeriodEnd && periodEnd && periodEnd.getTime() <= now.getTime()) {
        return {
          ...base,
          subscriptionStatus: 'expired',
          hasAccess: false,
          hasSubscription: true,
          expiresAt: iso(periodEnd),
          message: statusMessages.expired,
        };
      }
      return {
        ...base,
        subscriptionStatus: 'active',
        hasAccess: true,
        hasSubscription: true,
        expiresAt: iso(subscription.currentPeriodEnd),
        message: subscription.cancelAtPeriodEnd ? statusMessages.activeEnding : statusMessages.active,
      };
    }
    case 'inactive':
      return {
        ...base,
        subscriptionStatus: 'inactive',
        hasAccess: false,
        hasSubscription: true,
        expiresAt: iso(subscription.currentPeriodEnd),
        message: statusMessages.inactive,
      };
    case 'expired':
      return {
        ...base,
        subscriptionStatus: 'expired',
        hasAccess: false,
        hasSubscription: true,
        expiresAt: iso(subscription.currentPeriodEnd),
        message: statusMessages.expired,
      };
  }
}
