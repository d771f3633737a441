import type { Plan, PlanSubscribers } from '@contract/plans';
import {
  MAX_PLAN_PRICE_CENTS,
  MAX_TRIAL_DAYS,
  MIN_TRIAL_DAYS,
  planHasSubscribersMessage,
  planPriceInvalidMessage,
  UNLIMITED,
} from '../../../contract/plans';
import { NEW_TIER_MAX_CUSTOMERS, NEW_TIER_MAX_PACKAGES, NEW_TIER_PRICE_CENTS } from '../../lib/constants';
import { centsToPrice, priceToCents } from '../../lib/price-text';

// Tier editing rules of the Platform Tier Management dialog (spec admin §4, §5, §9). An input parser answers the
// value to store, or undefined when the input is to be ignored (the stored value stays).

/** Trial days: a whole number from 0 to 90; empty means 0. */
export function parseTrialDaysInput(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return 0;
  if (!/^\d+$/.test(trimmed)) return undefined;
  const days = Number(trimmed);
  return days >= MIN_TRIAL_DAYS && days <= MAX_TRIAL_DAYS ? days : undefined;
}

/**
 * Monthly price entered in dollars, as cents, read by the seller's price parser; empty means 0 (free). Undefined
 * for anything but a plain amount up to the highest plan price ("12.345", "-5", "abc"): the field says so.
 */
export function parsePriceInput(text: string): number | undefined {
  const cents = text.trim() === '' ? 0 : priceToCents(text);
  return cents !== undefined && cents <= MAX_PLAN_PRICE_CENTS ? cents : undefined;
}

/** What the price field says under itself, or undefined when the price can be saved. */
export const priceInputProblem = (text: string): string | undefined =>
  parsePriceInput(text) === undefined ? planPriceInvalidMessage : undefined;

/** Max customers or packages: a positive whole number; empty means unlimited (-1); non-positive input is ignored. */
export function parseLimitInput(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return UNLIMITED;
  const limit = Number(trimmed);
  if (!Number.isFinite(limit) || limit < 1) return undefined;
  return Math.floor(limit);
}

/** The text a limit field shows: empty for unlimited. */
export const limitInputText = (limit: number) => (limit === UNLIMITED ? '' : String(limit));

/** The text the price field shows: dollars with cents. */
export const priceInputText = centsToPrice;

/** Only one tier may be most popular: marking one clears the flag on every other. */
export function setMostPopular(tiers: readonly Plan[], tierId: string, isMostPopular: boolean): Plan[] {
  return tiers.map((tier) =>
    tier.id === tierId ? { ...tier, isMostPopular } : isMostPopular ? { ...tier, isMostPopular: false } : tier,
  );
}

/** A new tier at the end: id 'tier-{timestamp}', name 'Tier N', package icon, $29, 50 customers, 5 packages. */
export function newTier(tiers: readonly Plan[], now: number = Date.now()): Plan {
  return {
    id: `tier-${now}`,
    name: `Tier ${tiers.length + 1}`,
    icon: 'package',
    priceCents: NEW_TIER_PRICE_CENTS,
    currency: 'usd',
    description: '',
    features: [],
    maxCustomers: NEW_TIER_MAX_CUSTOMERS,
    maxPackages: NEW_TIER_MAX_PACKAGES,
    isMostPopular: false,
    isFeatured: false,
    sortOrder: tiers.length,
  };
}

/** Positions become sortOrder. */
export const withSortOrder = (tiers: readonly Plan[]): Plan[] =>
  tiers.map((tier, index) => (tier.sortOrder === index ? tier : { ...tier, sortOrder: index }));

/** Moves the dragged tier to where it was dropped; sortOrder follows the new positions. */
export function moveTier(tiers: readonly Plan[], draggedId: string, overId: string): Plan[] {
  const from = tiers.findIndex((tier) => tier.id === draggedId);
  const to = tiers.findIndex((tier) => tier.id === overId);
  if (from < 0 || to < 0 || from === to) return [...tiers];
  const next = [...tiers];
  const [dragged] = next.splice(from, 1);
  next.splice(to, 0, dragged as Plan);
  return withSortOrder(next);
}

export type PlanRemoval =
  | { kind: 'remove' }
  | { kind: 'last-tier'; title: string; description: string }
  | { kind: 'protected'; message: string }
  | { kind: 'confirm'; question: string };

/** Whether a tier may leave the dialog's list (spec admin §5). */
export function planRemoval(tierCount: number, subscribers?: PlanSubscribers): PlanRemoval {
  if (tierCount <= 1)
    return { kind: 'last-tier', title: 'Cannot Remove Tier', description: 'You must have at least one tier' };
  if (!subscribers) return { kind: 'remove' };
  if (!subscribers.canDelete)
    return {
      kind: 'protected',
      message: planHasSubscribersMessage(subscribers.subscriberCount, subscribers.trialCount),
    };
  if (subscribers.trialCount > 0)
    return {
      kind: 'confirm',
      question: `This tier has ${subscribers.trialCount} trial user(s). Are you sure you want to delete it? Trial users will need to select a different tier.`,
    };
  return { kind: 'remove' };
}

/** Protected tiers (paying subscribers) show 'Protected from deletion'. */
export const isProtectedPlan = (subscribers: PlanSubscribers | undefined) => subscribers?.canDelete === false;

const toNumber = (value: unknown, fallback: number) => {
  const number = Number(value);
  return Number.isFinite(number) ? number : fallback;
};

/** The PUT body: limits that are not numbers become -1; price, sortOrder and trial days are coerced to numbers. */
export function planConfigurationPayload(tiers: readonly Plan[], trialDays: unknown) {
  return {
    trialDays: toNumber(trialDays, 0),
    tiers: tiers.map((tier, index) => ({
      ...tier,
      priceCents: toNumber(tier.priceCents, 0),
      maxCustomers: toNumber(tier.maxCustomers, UNLIMITED),
      maxPackages: toNumber(tier.maxPackages, UNLIMITED),
      sortOrder: index,
    })),
  };
}
