import { LICENSE_HOLDER_GRACE_DAYS } from '../../../contract/billing.js';
import type { platformSubscriptions, users } from '../../db/schema/index.js';
import { DAY_MS } from '../../lib/clock.js';

// What happens to a seller's license holders when the seller's own subscription lapses (README, "Billing").
// A lapsed seller cannot add packages; their license holders keep installing for a grace period of
// LICENSE_HOLDER_GRACE_DAYS from the moment the seller lost access, with a warning in Composer's output, and
// then the repository stops serving. Admins' packages are never affected. Pure: the Composer endpoints read
// the seller's subscription in the same statement as the token, and decide here.

export type SellerSubscriptionFacts = {
  userType: (typeof users.$inferSelect)['userType'];
  /** Undefined when the seller never had a trial or subscription (no row). */
  subscription:
    | Pick<
        typeof platformSubscriptions.$inferSelect,
        'status' | 'trialEndsAt' | 'currentPeriodEnd' | 'cancelAtPeriodEnd' | 'accessEndedAt' | 'updatedAt'
      >
    | undefined;
};

export type RepositoryStanding =
  | { kind: 'serving' }
  /** The seller lost access; license holders are served until `until`. */
  | { kind: 'grace'; until: Date }
  /** The grace period ended at `endedAt`: nothing is served. */
  | { kind: 'closed'; endedAt: Date };

/**
 * When the seller lost access, or undefined while they have it: the end of the trial; the end of a period that
 * was cancelled; the moment a payment failed or the subscription ended (recorded as accessEndedAt).
 */
export function findAccessLapse(subscription: SellerSubscriptionFacts['subscription'], now: Date): Date | undefined {
  if (!subscription) return undefined;
  switch (subscription.status) {
    case 'trial': {
      // A trial row without an end counts as ended (as the status does); the row's last change is the best guess.
      const endsAt = subscription.trialEndsAt ?? subscription.updatedAt;
      return endsAt.getTime() <= now.getTime() ? endsAt : undefined;
    }
    case 'active': {
      const periodEnd = subscription.currentPeriodEnd;
      const hasEnded = subscription.cancelAtPeriodEnd && periodEnd !== null && periodEnd.getTime() <= now.getTime();
      return hasEnded ? periodEnd : undefined;
    }
    case 'inactive':
    case 'expired':
      return subscription.accessEndedAt ?? subscription.updatedAt;
  }
}

/**
 * Whether a seller's repository serves their license holders at `now`. A seller without a subscription row cannot
 * have created packages or licenses (both need a trial or a plan), so nothing of theirs is cut off for lacking one.
 */
export function repositoryStanding(facts: SellerSubscriptionFacts, now: Date): RepositoryStanding {
  if (facts.userType === 'admin') return { kind: 'serving' };
  const lapsedAt = findAccessLapse(facts.subscription, now);
  if (!lapsedAt) return { kind: 'serving' };
  const until = new Date(lapsedAt.getTime() + LICENSE_HOLDER_GRACE_DAYS * DAY_MS);
  return now.getTime() < until.getTime() ? { kind: 'grace', until } : { kind: 'closed', endedAt: until };
}
