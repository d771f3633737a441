import type { Plan } from '@contract/plans';
import { describe, expect, it } from 'vitest';
import { planFixture } from './plan-fixture';
import { formatMonthlyPrice, limitText, sortPlans, trialDaysOf } from './plans';

const tier = (id: string, sortOrder: number, priceCents = 1900): Plan => planFixture(id, { sortOrder, priceCents });

describe('plan display rules', () => {
  it('sorts tiers by sortOrder', () => {
    const sorted = sortPlans({ scale: tier('scale', 2), starter: tier('starter', 0), growth: tier('growth', 1) });
    expect(sorted.map((t) => t.id)).toEqual(['starter', 'growth', 'scale']);
  });

  it('shows cents as monthly dollars', () => {
    expect(formatMonthlyPrice(1900)).toBe('$19');
    expect(formatMonthlyPrice(19950)).toBe('$199.50');
    expect(formatMonthlyPrice(0)).toBe('$0');
  });

  it('reads -1 as unlimited', () => {
    expect(limitText(-1, 'customer', 'customers')).toBe('Unlimited customers');
    expect(limitText(25, 'customer', 'customers')).toBe('Up to 25 customers');
    expect(limitText(1, 'package', 'packages')).toBe('Up to 1 package');
  });

  it('defaults the trial to 14 days when the server gives none', () => {
    expect(trialDaysOf(undefined)).toBe(14);
    expect(trialDaysOf({ trialDays: 30 })).toBe(30);
  });
});
