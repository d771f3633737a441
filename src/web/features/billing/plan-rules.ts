import type { Plan, PlanIcon } from '@contract/plans';
import type { SubscriptionStatus } from '@contract/subscriptions';
import { planIcons } from '../../../contract/plans';

// The rules of /subscribe (spec admin §2, §4, §5): which title, which card is selected, which badges and
// which button each card shows.

type StatusFacts = Pick<SubscriptionStatus, 'subscriptionStatus' | 'tier' | 'selectedTier'>;

/** Changing plan: asked for with `?intent=change`, or implied by an active subscription. */
export function isChangingPlan(intent: string | null | undefined, status: StatusFacts | undefined): boolean {
  return intent === 'change' || status?.subscriptionStatus === 'active';
}

export const subscribePageTitle = (changing: boolean) => (changing ? 'Change Your Plan' : 'Choose Your Plan');

/** Cheapest first; the admin's order breaks ties. */
export function tiersByPrice(tiers: Record<string, Plan> | undefined): Plan[] {
  return Object.values(tiers ?? {}).sort((a, b) => a.priceCents - b.priceCents || a.sortOrder - b.sortOrder);
}

/** The tier an active subscription pays for; trials and lapsed plans have none. */
export function currentPlanTier(status: StatusFacts | undefined): string | null {
  return status?.subscriptionStatus === 'active' ? (status.tier ?? null) : null;
}

/**
 * The card selected when the page opens: the current tier if active; else the tier chosen at onboarding
 * during a trial or after it expired; else the most popular one.
 */
export function defaultSelectedTier(tiers: Plan[], status: StatusFacts | undefined): string | null {
  const known = (id: string | null | undefined) => (id && tiers.some((tier) => tier.id === id) ? id : null);
  if (status?.subscriptionStatus === 'active') {
    const current = known(status.tier);
    if (current) return current;
  }
  if (status?.subscriptionStatus === 'trial' || status?.subscriptionStatus === 'trial_expired') {
    const onboarding = known(status.selectedTier) ?? known(status.tier);
    if (onboarding) return onboarding;
  }
  return tiers.find((tier) => tier.isMostPopular)?.id ?? null;
}

export type PlanBadge = 'Most Popular' | 'Current Plan' | 'Recommended';

/** Most Popular and Recommended (the admin's Featured flag) come from the tier; Current Plan from the status. */
export function planBadges(tier: Plan, currentTierId: string | null): PlanBadge[] {
  const isCurrent = tier.id === currentTierId;
  const badges: PlanBadge[] = [];
  if (isCurrent) badges.push('Current Plan');
  if (tier.isMostPopular) badges.push('Most Popular');
  if (tier.isFeatured && !isCurrent) badges.push('Recommended');
  return badges;
}

export type PlanButton = { label: 'Subscribe Now' | 'Change to This Plan' | 'Current Plan'; disabled: boolean };

/** The current plan's button is disabled; every button is disabled while a checkout is being started. */
export function planButton(input: {
  tierId: string;
  currentTierId: string | null;
  isChanging: boolean;
  isCheckoutPending: boolean;
}): PlanButton {
  if (input.tierId === input.currentTierId) return { label: 'Current Plan', disabled: true };
  return {
    label: input.isChanging ? 'Change to This Plan' : 'Subscribe Now',
    disabled: input.isCheckoutPending,
  };
}

const iconsByTierId: Record<string, PlanIcon> = {
  starter: 'package',
  growth: 'users',
  scale: 'zap',
  enterprise: 'crown',
};

/** The icon the admin gave the tier; else the usual one for the default tier ids; else package. */
export function planIconName(tier: Pick<Plan, 'id' | 'icon'>): PlanIcon {
  if ((planIcons as readonly string[]).includes(tier.icon)) return tier.icon as PlanIcon;
  return iconsByTierId[tier.id] ?? 'package';
}

/** Where Stripe (or billing off) sends the browser back to. */
export function checkoutUrls(origin: string): { successUrl: string; cancelUrl: string } {
  return { successUrl: `${origin}/billing?success=true`, cancelUrl: `${origin}/subscribe?cancelled=true` };
}
