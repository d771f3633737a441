import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../../lib/clock.js';
import { findAccessLapse, repositoryStanding, type SellerSubscriptionFacts } from './license-holder-grace-rules.js';

const now = new Date('2026-03-20T12:00:00Z');
const daysAgo = (days: number) => new Date(now.getTime() - days * DAY_MS);
const daysAhead = (days: number) => new Date(now.getTime() + days * DAY_MS);

type Subscription = NonNullable<SellerSubscriptionFacts['subscription']>;
const subscription = (overrides: Partial<Subscription>): Subscription => ({
  status: 'trial',
  trialEndsAt: daysAhead(3),
  currentPeriodEnd: null,
  cancelAtPeriodEnd: false,
  accessEndedAt: null,
  updatedAt: daysAgo(30),
  ...overrides,
});
const seller = (overrides: Partial<Subscription>): SellerSubscriptionFacts => ({
  userType: 'seller',
  subscription: subscription(overrides),
});

describe('findAccessLapse', () => {
  it('is the trial end once the trial has ended', () => {
    expect(findAccessLapse(subscription({ trialEndsAt: daysAhead(1) }), now)).toBeUndefined();
    expect(findAccessLapse(subscription({ trialEndsAt: daysAgo(3) }), now)).toEqual(daysAgo(3));
  });

  it('is the end of a cancelled period once it has passed; a renewing period never lapses by date', () => {
    const active = { status: 'active' as const, currentPeriodEnd: daysAgo(2) };
    expect(findAccessLapse(subscription(active), now)).toBeUndefined();
    expect(findAccessLapse(subscription({ ...active, cancelAtPeriodEnd: true }), now)).toEqual(daysAgo(2));
    expect(
      findAccessLapse(subscription({ ...active, cancelAtPeriodEnd: true, currentPeriodEnd: daysAhead(2) }), now),
    ).toBeUndefined();
  });

  it('is when a payment failed or the subscription ended', () => {
    for (const status of ['inactive', 'expired'] as const) {
      expect(findAccessLapse(subscription({ status, accessEndedAt: daysAgo(4) }), now)).toEqual(daysAgo(4));
      expect(findAccessLapse(subscription({ status, accessEndedAt: null, updatedAt: daysAgo(9) }), now)).toEqual(
        daysAgo(9),
      );
    }
  });
});

describe('repositoryStanding', () => {
  it('serves a seller in a trial or a paid plan', () => {
    expect(repositoryStanding(seller({}), now)).toEqual({ kind: 'serving' });
    expect(repositoryStanding(seller({ status: 'active', currentPeriodEnd: daysAhead(20) }), now)).toEqual({
      kind: 'serving',
    });
  });

  it('keeps serving for 7 days after the trial ended, then closes', () => {
    expect(repositoryStanding(seller({ trialEndsAt: daysAgo(3) }), now)).toEqual({
      kind: 'grace',
      until: daysAhead(4),
    });
    expect(repositoryStanding(seller({ trialEndsAt: new Date(now.getTime() - 7 * DAY_MS + 1) }), now).kind).toBe(
      'grace',
    );
    expect(repositoryStanding(seller({ trialEndsAt: daysAgo(7) }), now)).toEqual({ kind: 'closed', endedAt: now });
    expect(repositoryStanding(seller({ trialEndsAt: daysAgo(8) }), now)).toEqual({
      kind: 'closed',
      endedAt: daysAgo(1),
    });
  });

  it('counts the grace of a failed payment from the failure', () => {
    expect(repositoryStanding(seller({ status: 'inactive', accessEndedAt: daysAgo(6) }), now)).toEqual({
      kind: 'grace',
      until: daysAhead(1),
    });
  });

  it("never closes an admin's packages, nor a seller who never had a subscription", () => {
    expect(repositoryStanding({ userType: 'admin', subscription: subscription({ status: 'expired' }) }, now)).toEqual({
      kind: 'serving',
    });
    expect(repositoryStanding({ userType: 'seller', subscription: undefined }, now)).toEqual({ kind: 'serving' });
  });
});
