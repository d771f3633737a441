import { UNLIMITED } from '../../../contract/plans.js';
import {
  SELECT_TIER_MESSAGE,
  type StartTrialResponse,
  type SubscriptionStatus,
} from '../../../contract/subscriptions.js';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import type { users } from '../../db/schema/index.js';
import { AppError } from '../../http/errors.js';
import { DAY_MS } from '../../lib/clock.js';
import { findPlan, getTrialDays } from '../plans/plans.service.js';
import { computeSubscriptionStatus } from './subscription-status.js';
import type { PlatformSubscription } from './subscriptions.repository.js';
import * as repository from './subscriptions.repository.js';

// The pure subscription rules other domains apply to facts they read themselves (Composer's hot path reads
// the seller's subscription in the same statement as the token, billing and admin present statuses).
export { repositoryStanding, type SellerSubscriptionFacts } from './license-holder-grace-rules.js';
export { computeSubscriptionStatus } from './subscription-status.js';
/** The plan record's writes for billing (checkout and the provider sync); this domain alone writes the table. */
export {
  findSubscriptionBy,
  lockSubscription,
  type PlatformSubscription,
  type SubscriptionValues,
  setCustomerIfMissing,
  updateSubscription,
  upsertSubscription,
} from './subscriptions.repository.js';

/** The fields of an organisation's account row the subscription rules look at (its plan): data, not who acts. */
export type PlanAccount = Pick<typeof users.$inferSelect, 'id' | 'userType' | 'selectedTier'>;

/** Anything that can run a select: the database or an open transaction. */
type Reader = Pick<Database, 'select'>;

export function findSubscription(ctx: AppContext, userId: string): Promise<PlatformSubscription | undefined> {
  return repository.findSubscriptionOf(ctx.db, userId);
}

/** The user's subscription status now (spec seller-app §3); for the user a session acts as. */
export async function getSubscriptionStatus(ctx: AppContext, user: PlanAccount): Promise<SubscriptionStatus> {
  const subscription = user.userType === 'admin' ? undefined : await findSubscription(ctx, user.id);
  return computeSubscriptionStatus(user, subscription, ctx.clock.now());
}

/** The caps of a seller's plan; null where the tier is unlimited (UNLIMITED, -1). */
export type PlanLimits = {
  tierName: string;
  maxPackages: number | null;
  maxHolders: number | null;
  /** Members of the organisation, its owner included (issue 33). */
  maxTeamMembers: number | null;
};

const capOf = (limit: number): number | null => (limit === UNLIMITED || limit < 0 ? null : limit);

/**
 * The one reading of a seller's plan limits (packages, license holders): the tier of the seller's subscription.
 * Undefined for admins (no plan, no cap) and for sellers who never chose a plan.
 */
export async function findPlanLimits(ctx: AppContext, user: PlanAccount): Promise<PlanLimits | undefined> {
  if (user.userType === 'admin') return undefined;
  const subscription = await findSubscription(ctx, user.id);
  const tier = subscription ? await findPlan(ctx, subscription.tierId) : undefined;
  if (!tier) return undefined;
  return {
    tierName: tier.name,
    maxPackages: capOf(tier.maxPackages),
    maxHolders: capOf(tier.maxCustomers),
    maxTeamMembers: capOf(tier.maxTeamMembers ?? UNLIMITED),
  };
}

/** True for admins, running trials and active subscriptions. */
export async function hasActiveAccess(ctx: AppContext, user: PlanAccount): Promise<boolean> {
  return (await getSubscriptionStatus(ctx, user)).hasAccess;
}

/** For other domains' services: refuses features that need a trial or subscription (403). */
export async function requireActiveAccess(ctx: AppContext, user: PlanAccount): Promise<void> {
  const status = await getSubscriptionStatus(ctx, user);
  if (status.hasAccess) return;
  throw new AppError('FORBIDDEN', 'An active subscription or free trial is required for this action.', {
    title: 'Subscription Required',
    suggestion:
      status.subscriptionStatus === 'tier_selection_required'
        ? 'Choose a plan to start your free trial.'
        : 'Subscribe to a plan to continue.',
  });
}

/**
 * Starts the seller's one free trial on the chosen tier. The end is stored now, so that a later change
 * of the trial length does not move running trials. Anyone who already has a trial or subscription
 * (or is an admin) gets `alreadyActive` and nothing changes: a seller never gets a second trial.
 */
export async function startTrial(
  ctx: AppContext,
  user: PlanAccount,
  tierId: string | undefined,
): Promise<StartTrialResponse> {
  if (!tierId) {
    throw new AppError('VALIDATION_FAILED', SELECT_TIER_MESSAGE, {
      title: 'Tier Required',
      suggestion: 'Choose one of the plans to start your free trial.',
    });
  }
  const alreadyActive = async (): Promise<StartTrialResponse> => ({
    success: true,
    alreadyActive: true,
    message: 'You already have a trial or subscription; nothing was changed.',
    status: await getSubscriptionStatus(ctx, user),
  });
  if (user.userType === 'admin' || (await findSubscription(ctx, user.id))) return alreadyActive();

  const tier = await findPlan(ctx, tierId);
  if (!tier) {
    throw new AppError('VALIDATION_FAILED', SELECT_TIER_MESSAGE, {
      title: 'Unknown Tier',
      suggestion: `There is no tier "${tierId}"; choose one of the plans shown.`,
    });
  }
  const trialDays = await getTrialDays(ctx);
  const now = ctx.clock.now();
  // Two clicks racing: the primary key lets exactly one insert through.
  const isNew = await repository.insertTrialIfAbsent(ctx.db, {
    userId: user.id,
    status: 'trial',
    tierId: tier.id,
    trialStartedAt: now,
    trialEndsAt: new Date(now.getTime() + trialDays * DAY_MS),
    createdAt: now,
    updatedAt: now,
  });
  if (!isNew) return alreadyActive();

  ctx.log.info({ userId: user.id, tierId: tier.id, trialDays }, 'free trial started');
  return {
    success: true,
    alreadyActive: false,
    message: `Your ${trialDays}-day free trial of the ${tier.name} plan has started.`,
    status: await getSubscriptionStatus(ctx, user),
  };
}

export type PlanMembers = { subscriberCount: number; trialCount: number };

/**
 * Who is on each tier: paying subscribers (active, or inactive while a failed payment is retried,
 * since both still bill on that tier) and running trials. `reader` lets a caller count inside its
 * own transaction.
 */
export async function countPlanMembers(
  ctx: AppContext,
  tierIds: string[],
  reader: Reader = ctx.db,
): Promise<Map<string, PlanMembers>> {
  const members = new Map<string, PlanMembers>(tierIds.map((id) => [id, { subscriberCount: 0, trialCount: 0 }]));
  if (tierIds.length === 0) return members;
  const now = ctx.clock.now();
  for (const row of await repository.countMembersByTier(reader, tierIds, now)) {
    members.set(row.tierId, { subscriberCount: Number(row.subscribers), trialCount: Number(row.trials) });
  }
  return members;
}
