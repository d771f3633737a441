import type { Plan } from '@contract/plans';
import type { SubscriptionStatus } from '@contract/subscriptions';
import { describe, expect, it } from 'vitest';
import { planFixture } from '../../lib/subscriptions/plan-fixture';
import {
  checkoutUrls,
  currentPlanTier,
  defaultSelectedTier,
  isChangingPlan,
  planBadges,
  planButton,
  planIconName,
  subscribePageTitle,
  tiersByPrice,
} from './plan-rules';

const tier = (id: string, priceCents: number, extra: Partial<Plan> = {}): Plan =>
  planFixture(id, { priceCents, ...extra });

const tiers = [tier('starter', 1900, { isMostPopular: true }), tier('growth', 4900), tier('scale', 9900)];

const status = (
  subscriptionStatus: SubscriptionStatus['subscriptionStatus'],
  fields: Partial<Pick<SubscriptionStatus, 'tier' | 'selectedTier'>> = {},
) => ({ subscriptionStatus, tier: null, selectedTier: null, ...fields });

describe('the /subscribe title', () => {
  it('reads Change Your Plan with intent=change or an active subscription', () => {
    expect(subscribePageTitle(isChangingPlan('change', status('trial')))).toBe('Change Your Plan');
    expect(subscribePageTitle(isChangingPlan(null, status('active', { tier: 'growth' })))).toBe('Change Your Plan');
  });
  it('reads Choose Your Plan otherwise', () => {
    for (const value of ['trial', 'trial_expired', 'inactive', 'expired'] as const) {
      expect(subscribePageTitle(isChangingPlan(null, status(value)))).toBe('Choose Your Plan');
    }
    expect(subscribePageTitle(isChangingPlan(null, undefined))).toBe('Choose Your Plan');
  });
});

describe('plan cards', () => {
  it('are sorted by price, cheapest first, whatever the admin order', () => {
    const sorted = tiersByPrice({
      scale: tier('scale', 9900, { sortOrder: 0 }),
      starter: tier('starter', 1900, { sortOrder: 2 }),
      growth: tier('growth', 4900, { sortOrder: 1 }),
    });
    expect(sorted.map((t) => t.id)).toEqual(['starter', 'growth', 'scale']);
  });

  it('break price ties by the admin order', () => {
    const sorted = tiersByPrice({ b: tier('b', 1000, { sortOrder: 1 }), a: tier('a', 1000, { sortOrder: 0 }) });
    expect(sorted.map((t) => t.id)).toEqual(['a', 'b']);
  });

  it('use the icon the admin chose, the usual icon of a default tier id, else the package icon', () => {
    expect(planIconName({ id: 'starter', icon: 'rocket' })).toBe('rocket');
    expect(planIconName({ id: 'growth', icon: 'unknown' })).toBe('users');
    expect(planIconName({ id: 'scale', icon: '' })).toBe('zap');
    expect(planIconName({ id: 'enterprise', icon: 'x' })).toBe('crown');
    expect(planIconName({ id: 'tier-17', icon: 'x' })).toBe('package');
  });
});

describe('the default selection', () => {
  it('is the current tier when the subscription is active', () => {
    expect(defaultSelectedTier(tiers, status('active', { tier: 'scale', selectedTier: 'growth' }))).toBe('scale');
  });
  it('is the onboarding tier during a trial or after it expired', () => {
    expect(defaultSelectedTier(tiers, status('trial', { tier: 'growth', selectedTier: 'growth' }))).toBe('growth');
    expect(defaultSelectedTier(tiers, status('trial_expired', { selectedTier: 'scale' }))).toBe('scale');
  });
  it('is the most popular tier otherwise', () => {
    expect(defaultSelectedTier(tiers, status('inactive', { tier: 'growth' }))).toBe('starter');
    expect(defaultSelectedTier(tiers, undefined)).toBe('starter');
  });
  it('skips a tier that no longer exists', () => {
    expect(defaultSelectedTier(tiers, status('active', { tier: 'retired' }))).toBe('starter');
    expect(defaultSelectedTier(tiers, status('trial', { selectedTier: 'retired' }))).toBe('starter');
  });
  it('is nothing when no tier is most popular', () => {
    expect(defaultSelectedTier([tier('a', 100)], undefined)).toBeNull();
  });
});

describe('current plan', () => {
  it('is the tier of an active subscription only', () => {
    expect(currentPlanTier(status('active', { tier: 'growth' }))).toBe('growth');
    expect(currentPlanTier(status('trial', { tier: 'growth' }))).toBeNull();
    expect(currentPlanTier(status('inactive', { tier: 'growth' }))).toBeNull();
  });
});

describe('plan badges', () => {
  it('marks the current plan, the most popular and the featured (Recommended) tiers', () => {
    expect(planBadges(tier('a', 1, { isMostPopular: true }), null)).toEqual(['Most Popular']);
    expect(planBadges(tier('a', 1, { isFeatured: true }), null)).toEqual(['Recommended']);
    expect(planBadges(tier('a', 1), 'a')).toEqual(['Current Plan']);
    expect(planBadges(tier('a', 1, { isMostPopular: true }), 'a')).toEqual(['Current Plan', 'Most Popular']);
  });
  it('does not recommend the plan already paid for', () => {
    expect(planBadges(tier('a', 1, { isFeatured: true }), 'a')).toEqual(['Current Plan']);
  });
});

describe('plan buttons', () => {
  const button = (tierId: string, currentTierId: string | null, isChanging: boolean, isCheckoutPending = false) =>
    planButton({ tierId, currentTierId, isChanging, isCheckoutPending });

  it('reads Current Plan, disabled, on the plan paid for', () => {
    expect(button('growth', 'growth', true)).toEqual({ label: 'Current Plan', disabled: true });
  });
  it('reads Change to This Plan on the others when changing plan', () => {
    expect(button('scale', 'growth', true)).toEqual({ label: 'Change to This Plan', disabled: false });
  });
  it('reads Subscribe Now when choosing a first plan', () => {
    expect(button('scale', null, false)).toEqual({ label: 'Subscribe Now', disabled: false });
  });
  it('are all disabled while a checkout is being started', () => {
    expect(button('scale', null, false, true).disabled).toBe(true);
    expect(button('scale', 'growth', true, true).disabled).toBe(true);
  });
});

describe('checkout URLs', () => {
  it('return to /billing on success and to /subscribe when cancelled', () => {
    expect(checkoutUrls('https://app.example.com')).toEqual({
      successUrl: 'https://app.example.com/billing?success=true',
      cancelUrl: 'https://app.example.com/subscribe?cancelled=true',
    });
  });
});
