import { describe, expect, it } from 'vitest';
import { type CasesByRule, itAnswersEachCase } from '../../../../test/support/case-tables.js';
import { planFixture as tier } from '../../lib/subscriptions/plan-fixture';
import {
  isProtectedPlan,
  moveTier,
  newTier,
  parseLimitInput,
  parsePriceInput,
  parseTrialDaysInput,
  planConfigurationPayload,
  planRemoval,
  priceInputProblem,
  setMostPopular,
} from './plan-editing';

/** Each rule of the trial days field, with the texts typed and the days each stores (undefined: ignored). */
const trialDaysByRule: CasesByRule<string, number | undefined> = {
  'accepts whole numbers from 0 to 90': [
    ['0', 0],
    ['21', 21],
    ['90', 90],
  ],
  'reads an empty field as 0': [['', 0]],
  'ignores out-of-range and non-whole input': [
    ['91', undefined],
    ['-1', undefined],
    ['2.5', undefined],
  ],
};

/** Each rule of the price field, with the texts typed and the cents each stores (undefined: ignored). */
const priceCentsByRule: CasesByRule<string, number | undefined> = {
  'stores dollars as rounded cents': [
    ['29', 2900],
    ['19.99', 1999],
  ],
  'reads an empty field as 0': [['', 0]],
  'ignores negative input': [['-5', undefined]],
};

/** Each rule of a limit field, with the texts typed and the limit each stores (-1: unlimited, undefined: ignored). */
const limitsByRule: CasesByRule<string, number | undefined> = {
  'reads an empty field as unlimited': [['', -1]],
  'accepts positive whole numbers': [['50', 50]],
  'ignores non-positive input': [
    ['0', undefined],
    ['-3', undefined],
  ],
};

describe('trial days input', () => {
  itAnswersEachCase(parseTrialDaysInput, trialDaysByRule);
});

describe('price input', () => {
  itAnswersEachCase(parsePriceInput, priceCentsByRule);
  it('refuses what is not a plain amount, as the Pricing dialog does, and says why', () => {
    for (const text of ['-5', '0.105', '1e3', '12.345', 'abc', '1000000']) {
      expect(parsePriceInput(text), text).toBeUndefined();
      expect(priceInputProblem(text), text).toMatch(/^The monthly price must be an amount in dollars/);
    }
    expect(priceInputProblem('999999.99')).toBeUndefined();
  });
});

describe('limit input', () => {
  itAnswersEachCase(parseLimitInput, limitsByRule);
});

describe('most popular', () => {
  it('clears the flag on every other tier when one is marked', () => {
    const tiers = [tier('a', { isMostPopular: true }), tier('b'), tier('c')];
    expect(setMostPopular(tiers, 'b', true).map((t) => t.isMostPopular)).toEqual([false, true, false]);
  });
  it('unmarks only the tier itself', () => {
    const tiers = [tier('a', { isMostPopular: true }), tier('b')];
    expect(setMostPopular(tiers, 'a', false).map((t) => t.isMostPopular)).toEqual([false, false]);
  });
});

describe('adding a tier', () => {
  it('uses the spec defaults and goes last', () => {
    const added = newTier([tier('a'), tier('b')], 1700000000000);
    expect(added).toMatchObject({
      id: 'tier-1700000000000',
      name: 'Tier 3',
      icon: 'package',
      priceCents: 2900,
      maxCustomers: 50,
      maxPackages: 5,
      isMostPopular: false,
      isFeatured: false,
      sortOrder: 2,
    });
  });
});

describe('reordering', () => {
  it('moves the dragged tier to the drop position and sets sortOrder to the positions', () => {
    const tiers = [tier('a', { sortOrder: 0 }), tier('b', { sortOrder: 1 }), tier('c', { sortOrder: 2 })];
    const moved = moveTier(tiers, 'c', 'a');
    expect(moved.map((t) => [t.id, t.sortOrder])).toEqual([
      ['c', 0],
      ['a', 1],
      ['b', 2],
    ]);
  });
});

describe('removing a tier', () => {
  const subscribers = (subscriberCount: number, trialCount: number) => ({
    subscriberCount,
    trialCount,
    canDelete: subscriberCount === 0,
    totalUsers: subscriberCount + trialCount,
  });

  it('keeps at least one tier', () => {
    expect(planRemoval(1, subscribers(0, 0))).toEqual({
      kind: 'last-tier',
      title: 'Cannot Remove Tier',
      description: 'You must have at least one tier',
    });
  });
  it('protects a tier with active subscribers', () => {
    expect(planRemoval(3, subscribers(2, 1))).toEqual({
      kind: 'protected',
      message:
        'This tier has 2 active subscriber(s) and 1 trial user(s). Tiers with active users cannot be deleted to protect existing subscriptions.',
    });
    expect(isProtectedPlan(subscribers(2, 1))).toBe(true);
  });
  it('asks first when only trial users have the tier', () => {
    expect(planRemoval(3, subscribers(0, 4))).toEqual({
      kind: 'confirm',
      question:
        'This tier has 4 trial user(s). Are you sure you want to delete it? Trial users will need to select a different tier.',
    });
  });
  it('removes an unused tier', () => expect(planRemoval(2, subscribers(0, 0))).toEqual({ kind: 'remove' }));
});

describe('the save payload', () => {
  it('coerces numbers, turns non-numeric limits into unlimited and numbers the positions', () => {
    const broken = tier('b', { maxCustomers: Number.NaN, priceCents: '1500' as unknown as number, sortOrder: 7 });
    const payload = planConfigurationPayload([tier('a'), broken], '21');
    expect(payload.trialDays).toBe(21);
    expect(payload.tiers[1]).toMatchObject({ priceCents: 1500, maxCustomers: -1, sortOrder: 1 });
  });
});
