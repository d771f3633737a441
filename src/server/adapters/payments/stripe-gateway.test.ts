import type Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { priceLookupKeyFor, toProviderSubscription } from './stripe-gateway.js';

function subscription(status: string, overrides: Record<string, unknown> = {}): Stripe.Subscription {
  return {
    id: 'sub_1',
    object: 'subscription',
    customer: 'cus_1',
    status,
    cancel_at_period_end: false,
    ended_at: null,
    metadata: { userId: 'user-1', tierId: 'starter' },
    items: {
      object: 'list',
      data: [
        { id: 'si_1', price: { id: 'price_1', metadata: { tierId: 'growth' } }, current_period_end: 1_775_000_000 },
      ],
    },
    ...overrides,
  } as unknown as Stripe.Subscription;
}

describe('toProviderSubscription', () => {
  it.each([
    ['active', 'active'],
    ['trialing', 'active'],
    ['past_due', 'inactive'],
    ['unpaid', 'inactive'],
    ['incomplete', 'inactive'],
    ['paused', 'inactive'],
    ['canceled', 'expired'],
    ['incomplete_expired', 'expired'],
  ])('reads Stripe status %s as %s', (status, state) => {
    expect(toProviderSubscription(subscription(status)).state).toBe(state);
  });

  it('takes the tier from the price, the period from the item and the seller from the metadata', () => {
    expect(toProviderSubscription(subscription('active', { ended_at: 1_775_000_100 }))).toEqual({
      id: 'sub_1',
      customerId: 'cus_1',
      state: 'active',
      providerStatus: 'active',
      itemId: 'si_1',
      priceId: 'price_1',
      tierId: 'growth',
      userId: 'user-1',
      currentPeriodEnd: new Date(1_775_000_000 * 1000),
      cancelAtPeriodEnd: false,
      endedAt: new Date(1_775_000_100 * 1000),
    });
  });

  it('reads the period from the subscription on API versions before 2025-03-31', () => {
    const old = subscription('active', {
      current_period_end: 1_700_000_000,
      items: { object: 'list', data: [{ id: 'si_1', price: { id: 'price_1', metadata: {} } }] },
    });
    expect(toProviderSubscription(old)).toMatchObject({
      currentPeriodEnd: new Date(1_700_000_000 * 1000),
      tierId: 'starter',
    });
  });
});

describe('priceLookupKeyFor', () => {
  it('names everything a price fixes, so that a new amount gets a new price', () => {
    const tier = { tierId: 'growth', name: 'Growth', priceCents: 4900, currency: 'USD' };
    expect(priceLookupKeyFor(tier)).toBe('packgate_growth_usd_4900_month');
    expect(priceLookupKeyFor({ ...tier, priceCents: 5900 })).not.toBe(priceLookupKeyFor(tier));
  });
});
