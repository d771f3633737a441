import { z } from 'zod';

/** The icons an admin may give a tier (spec admin §3); the web falls back to `package` for anything else. */
export const tierIcons = [
  'package',
  'users',
  'dollar-sign',
  'star',
  'crown',
  'zap',
  'shield',
  'globe',
  'rocket',
  'building',
  'heart',
  'diamond',
  'target',
  'gem',
] as const;
export type TierIcon = (typeof tierIcons)[number];

export const tierIconLabels: Record<TierIcon, string> = {
  package: 'Package',
  users: 'Users',
  'dollar-sign': 'Dollar',
  star: 'Star',
  crown: 'Crown',
  zap: 'Lightning',
  shield: 'Shield',
  globe: 'Globe',
  rocket: 'Rocket',
  building: 'Building',
  heart: 'Heart',
  diamond: 'Diamond',
  target: 'Target',
  gem: 'Gem',
};

/** -1 in maxCustomers, maxPackages or maxTeamMembers means unlimited. */
export const UNLIMITED = -1;
export const DEFAULT_TRIAL_DAYS = 14;
export const MIN_TRIAL_DAYS = 0;
export const MAX_TRIAL_DAYS = 90;
/** The highest monthly plan price, in cents ($999,999.99): the most a Stripe price takes in USD. */
export const MAX_TIER_PRICE_CENTS = 99_999_999;
/** Said by the admin's tier dialog and by the server alike when a plan price is not an amount it can charge. */
export const tierPriceInvalidMessage = `The monthly price must be an amount in dollars from 0.00 to ${(MAX_TIER_PRICE_CENTS / 100).toFixed(2)}, with at most two decimals`;

export const pricingTierSchema = z.object({
  id: z.string(),
  name: z.string(),
  icon: z.string(),
  priceCents: z.number().int(),
  currency: z.string(),
  description: z.string(),
  features: z.array(z.string()),
  maxCustomers: z.number().int(),
  maxPackages: z.number().int(),
  /**
   * How many members an organisation on this plan may have, its owner included (issue 33); -1: unlimited. The server
   * always answers it; optional only so that a tier written without it (a default, a test's) still type-checks.
   */
  maxTeamMembers: z.number().int().optional(),
  isMostPopular: z.boolean(),
  isFeatured: z.boolean(),
  sortOrder: z.number().int(),
});
export type PricingTier = z.infer<typeof pricingTierSchema>;

/** GET /api/pricing-tiers: public, tiers keyed by id (sort them by sortOrder to display). */
export const pricingTiersResponse = z.object({
  trialDays: z.number().int(),
  tiers: z.record(z.string(), pricingTierSchema),
});
export type PricingTiersResponse = z.infer<typeof pricingTiersResponse>;

/** A limit is a positive count or -1 for unlimited. */
const tierLimit = z
  .number()
  .int()
  .refine((value) => value === UNLIMITED || value >= 1, 'must be at least 1, or -1 for unlimited');

/** One tier as the admin's tier dialog saves it. */
export const tierInputSchema = z.object({
  id: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, 'letters, digits, - and _ only (at most 64)'),
  name: z.string().trim().min(1, 'is required').max(100),
  icon: z.enum(tierIcons).default('package'),
  priceCents: z
    .number()
    .int(tierPriceInvalidMessage)
    .min(0, tierPriceInvalidMessage)
    .max(MAX_TIER_PRICE_CENTS, tierPriceInvalidMessage),
  currency: z
    .string()
    .trim()
    .regex(/^[a-zA-Z]{3}$/, 'must be a three-letter currency code')
    .transform((value) => value.toLowerCase())
    .default('usd'),
  description: z.string().max(2000).default(''),
  features: z.array(z.string().trim().min(1).max(300)).max(50).default([]),
  maxCustomers: tierLimit,
  maxPackages: tierLimit,
  /** Left out, a saved tier keeps its limit (a new one is unlimited). */
  maxTeamMembers: z.optional(tierLimit),
  isMostPopular: z.boolean().default(false),
  isFeatured: z.boolean().default(false),
  sortOrder: z.number().int().min(0),
});
export type TierInput = z.infer<typeof tierInputSchema>;

/** GET /api/admin/tier-configuration; the PUT answers the same shape after saving. */
export const tierConfigurationResponse = z.object({
  tiers: z.array(pricingTierSchema),
  trialDays: z.number().int(),
});
export type TierConfiguration = z.infer<typeof tierConfigurationResponse>;

/** PUT /api/admin/tier-configuration: the whole list replaces the stored one. */
export const tierConfigurationInput = z.object({
  tiers: z.array(tierInputSchema).max(20),
  trialDays: z.number().int().min(MIN_TRIAL_DAYS).max(MAX_TRIAL_DAYS),
});
export type TierConfigurationInput = z.infer<typeof tierConfigurationInput>;

export const tierIdParams = z.object({ tierId: z.string().min(1).max(64) });

/** GET /api/admin/tier-subscribers/{tierId}: whether the tier can be removed without hurting anyone. */
export const tierSubscribersResponse = z.object({
  subscriberCount: z.number().int(),
  trialCount: z.number().int(),
  canDelete: z.boolean(),
  totalUsers: z.number().int(),
});
export type TierSubscribers = z.infer<typeof tierSubscribersResponse>;

/** Spec admin §5, shown when a tier with paying subscribers is removed. */
export function tierHasSubscribersMessage(subscriberCount: number, trialCount: number): string {
  return `This tier has ${subscriberCount} active subscriber(s) and ${trialCount} trial user(s). Tiers with active users cannot be deleted to protect existing subscriptions.`;
}
