import { PLATFORM_FEE_PERCENT } from '../../../contract/sales.js';

// Pure rules of selling: the platform fee, the access a purchase gives, and what Stripe's states mean for it.

/**
 * The platform's fee on an amount in cents: exactly PLATFORM_FEE_PERCENT (5%), rounded half up to the cent
 * (2.5 cents -> 3, 2.49 -> 2). Integer arithmetic only: 5% of n cents is n/20, and floor((n + 10) / 20) rounds
 * it half up without a float ever holding a fraction.
 */
export function platformFeeCents(amountCents: number): number {
  if (!Number.isSafeInteger(amountCents) || amountCents < 0)
    throw new RangeError(`Not an amount in cents: ${amountCents}`);
  const divisor = 100 / PLATFORM_FEE_PERCENT;
  return Math.floor((amountCents + divisor / 2) / divisor);
}

export type SubscriptionFacts = {
  status: string;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  endedAt: Date | null;
};

/**
 * Until when a subscription gives access, from Stripe's present state of it: active or trialing: the end of the
 * paid (or trial) period; past_due, unpaid, incomplete or paused: the start of the current period (Stripe moves the
 * period forward before the renewal is paid, so the paid time ended there); canceled: when it ended.
 */
export function subscriptionAccessEnd(facts: SubscriptionFacts): Date | null {
  switch (facts.status) {
    case 'active':
    case 'trialing':
      return facts.currentPeriodEnd;
    case 'canceled':
    case 'incomplete_expired':
      return facts.endedAt ?? facts.currentPeriodEnd;
    default:
      return facts.currentPeriodStart ?? facts.currentPeriodEnd;
  }
}
