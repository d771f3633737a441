import { z } from 'zod';

/** The icons an admin may give a tier (spec admin §3); the web falls back to `package` for anything else. */
export const planIcons = [
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
export type PlanIcon = (typeof planIcons)[number];

export const planIconLabels: Record<PlanIcon, string> = {
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
export const MAX_PLAN_PRICE_CENTS = 99_999_999;
/** Said by the admin's tier dialog and by the server alike when a plan price is not an amount it can charge. */
export const planPriceInvalidMessage = `The monthly price must be an amount in dollars from 0.00 to ${(MAX_PLAN_PRICE_CENTS / 100).toFixed(2)}, with at most two decimals`;

export const planSchema = z.object({
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
export type Plan = z.infer<typeof planSchema>;

/** GET /api/pricing-tiers: public, tiers keyed by id (sort them by sortOrder to display). */
export const plansResponse = z.object({
  trialDays: z.number().int(),
  tiers: z.record(z.string(), planSchema),
});
export type PlansResponse = z.infer<typeof plansResponse>;

/** A limit is a positive count or -1 for unlimited. */
const tierLimit = z
  .number()
  .int()
  .refine((value) => value === UNLIMITED || value >= 1, 'must be at least 1, or -1 for unlimited');

/** One tier as the admin's tier dialog saves it. */
export const planInputSchema = z.object({
  id: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, 'letters, digits, - and _ only (at most 64)'),
  name: z.string().trim().min(1, 'is required').max(100),
  icon: z.enum(planIcons).default('package'),
  priceCents: z
    .number()
    .int(planPriceInvalidMessage)
    .min(0, planPriceInvalidMessage)
    .max(MAX_PLAN_PRICE_CENTS, planPriceInvalidMessage),
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
export type PlanInput = z.infer<typeof planInputSchema>;

/** GET /api/admin/tier-configuration; the PUT answers the same shape after saving. */
export const planConfigurationResponse = z.object({
  tiers: z.array(planSchema),
  trialDays: z.number().int(),
});
export type PlanConfiguration = z.infer<typeof planConfigurationResponse>;

/** PUT /api/admin/tier-configuration: the whole list replaces the stored one. */
export const planConfigurationInput = z.object({
  tiers: z.array(planInputSchema).max(20),
  trialDays: z.number().int().min(MIN_TRIAL_DAYS).max(MAX_TRIAL_DAYS),
});
export type PlanConfigurationInput = z.infer<typeof planConfigurationInput>;

export const tierIdParams = z.object({ tierId: z.string().min(1).max(64) });

/** GET /api/admin/tier-subscribers/{tierId}: whether the tier can be removed without hurting anyone. */
export const planSubscribersResponse = z.object({
  subscriberCount: z.number().int(),
  trialCount: z.number().int(),
  canDelete: z.boolean(),
  totalUsers: z.number().int(),
});
export type PlanSubscribers = z.infer<typeof planSubscribersResponse>;

/** Spec admin §5, shown when a tier with paying subscribers is removed. */
export function planHasSubscribersMessage(subscriberCount: number, trialCount: number): string {
  return `This tier has ${subscriberCount} active subscriber(s) and ${trialCount} trial user(s). Tiers with active users cannot be deleted to protect existing subscriptions.`;
}
