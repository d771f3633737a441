import {
  DEFAULT_TRIAL_DAYS,
  MAX_TRIAL_DAYS,
  MIN_TRIAL_DAYS,
  type Plan,
  type PlanConfiguration,
  type PlanConfigurationInput,
  type PlanSubscribers,
  type PlansResponse,
  planHasSubscribersMessage,
} from '../../../contract/plans.js';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { AppError } from '../../http/errors.js';
import { findStoredValue, storeValue } from '../shared/settings/platform-settings.service.js';
import { defaultPlans } from './default-plans.js';
import {
  deletePlansNotIn,
  findPlanRow,
  hasAnyPlan,
  insertPlansIfAbsent,
  type PlanRow,
  selectPlansInOrder,
  upsertPlan,
} from './plans.repository.js';

/**
 * Counts paying subscribers and trial users per tier. The subscriptions domain owns those rows and
 * itself reads tiers, so the routes pass its counter in rather than this domain importing it back.
 */
export type CountPlanMembers = (
  ctx: AppContext,
  tierIds: string[],
  reader?: Pick<Database, 'select'>,
) => Promise<Map<string, { subscriberCount: number; trialCount: number }>>;

export const TRIAL_DAYS_SETTING = 'trial_days';

function toPlan(row: PlanRow): Plan {
  return {
    id: row.id,
    name: row.name,
    icon: row.icon,
    priceCents: row.priceCents,
    currency: row.currency,
    description: row.description,
    features: row.features,
    maxCustomers: row.maxCustomers,
    maxPackages: row.maxPackages,
    maxTeamMembers: row.maxTeamMembers,
    isMostPopular: row.isMostPopular,
    isFeatured: row.isFeatured,
    sortOrder: row.sortOrder,
  };
}

/**
 * Offers the default tiers on a fresh installation. Only an empty table is seeded, so tiers an admin
 * removed stay removed; two processes starting together both insert and the loser's rows are ignored.
 */
export async function seedDefaultPlans(ctx: AppContext): Promise<void> {
  if (await hasAnyPlan(ctx.db)) return;
  await insertPlansIfAbsent(ctx.db, defaultPlans);
}

/** Length of a new trial; existing trials keep the end they were given when they started. */
export async function getTrialDays(ctx: AppContext): Promise<number> {
  const stored = await findStoredValue(ctx, TRIAL_DAYS_SETTING);
  const days = stored === undefined ? Number.NaN : Number(stored);
  // A value edited by hand into something unusable must not break sign-up; fall back to the default.
  return Number.isInteger(days) && days >= MIN_TRIAL_DAYS && days <= MAX_TRIAL_DAYS ? days : DEFAULT_TRIAL_DAYS;
}

export async function listPlans(ctx: AppContext): Promise<Plan[]> {
  const rows = await selectPlansInOrder(ctx.db);
  return rows.map(toPlan);
}

export async function findPlan(ctx: AppContext, tierId: string): Promise<Plan | undefined> {
  const row = await findPlanRow(ctx.db, tierId);
  return row ? toPlan(row) : undefined;
}

/** The public plan list: tiers keyed by id (in sortOrder) and the trial length. */
export async function getPlans(ctx: AppContext): Promise<PlansResponse> {
  const [tiers, trialDays] = await Promise.all([listPlans(ctx), getTrialDays(ctx)]);
  return { trialDays, tiers: Object.fromEntries(tiers.map((tier) => [tier.id, tier])) };
}

export async function getPlanConfiguration(ctx: AppContext): Promise<PlanConfiguration> {
  const [tiers, trialDays] = await Promise.all([listPlans(ctx), getTrialDays(ctx)]);
  return { tiers, trialDays };
}

/**
 * Unknown tier ids (a tier added in the dialog and not saved yet) have nobody on them, so they
 * answer zeros rather than 404: the dialog asks before it saves.
 */
export async function getPlanSubscribers(
  ctx: AppContext,
  tierId: string,
  countPlanMembers: CountPlanMembers,
): Promise<PlanSubscribers> {
  const members = (await countPlanMembers(ctx, [tierId])).get(tierId) ?? { subscriberCount: 0, trialCount: 0 };
  return {
    ...members,
    canDelete: members.subscriberCount === 0,
    totalUsers: members.subscriberCount + members.trialCount,
  };
}

function validateConfiguration(input: PlanConfigurationInput): void {
  if (input.tiers.length === 0) {
    throw new AppError('VALIDATION_FAILED', 'You must have at least one tier', { title: 'Cannot Remove Tier' });
  }
  const ids = new Set<string>();
  for (const tier of input.tiers) {
    if (ids.has(tier.id)) {
      throw new AppError('VALIDATION_FAILED', `Two tiers share the id "${tier.id}".`, {
        suggestion: 'Give every tier its own id.',
      });
    }
    ids.add(tier.id);
  }
  if (input.tiers.filter((tier) => tier.isMostPopular).length > 1) {
    throw new AppError('VALIDATION_FAILED', 'Only one tier may be marked Most Popular.', {
      suggestion: 'Clear the Most Popular box on all tiers but one.',
    });
  }
}

/**
 * Replaces the tier list and the trial length in one transaction. Removing a tier that still has
 * paying subscribers is refused; trial users may lose their tier (they pick another when subscribing).
 */
export async function savePlanConfiguration(
  ctx: AppContext,
  input: PlanConfigurationInput,
  countPlanMembers: CountPlanMembers,
): Promise<PlanConfiguration> {
  validateConfiguration(input);
  const now = ctx.clock.now();
  const keptIds = input.tiers.map((tier) => tier.id);
  await ctx.db.transaction(async (tx) => {
    const removed = await deletePlansNotIn(tx, keptIds);
    if (removed.length > 0) {
      const members = await countPlanMembers(
        ctx,
        removed.map((tier) => tier.id),
        tx,
      );
      for (const tier of removed) {
        const counts = members.get(tier.id);
        if (counts && counts.subscriberCount > 0) {
          throw new AppError('CONFLICT', planHasSubscribersMessage(counts.subscriberCount, counts.trialCount), {
            title: 'Cannot Remove Tier',
            suggestion: `Keep the ${tier.name} tier until its subscribers have moved to another tier.`,
          });
        }
      }
    }
    for (const tier of input.tiers) await upsertPlan(tx, { ...tier, updatedAt: now }, now);
    await storeValue(tx, TRIAL_DAYS_SETTING, String(input.trialDays), now);
  });
  ctx.log.info({ tiers: keptIds, trialDays: input.trialDays }, 'tier configuration saved');
  return getPlanConfiguration(ctx);
}
