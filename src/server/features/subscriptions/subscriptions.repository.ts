import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { firstRow, hasAnyRow } from '../../db/result-rows.js';
import { platformSubscriptions } from '../../db/schema/index.js';

// The queries of the sellers' plan records (platform_subscriptions): billing's provider sync and checkout reach the
// writes through subscriptions.service.ts, so that this domain alone writes the table.

type Queryable = Pick<Database, 'select' | 'insert' | 'update'>;
export type PlatformSubscription = typeof platformSubscriptions.$inferSelect;
export type SubscriptionValues = Partial<Omit<typeof platformSubscriptions.$inferInsert, 'userId' | 'createdAt'>>;

export async function findSubscriptionBy(
  db: Queryable,
  column: typeof platformSubscriptions.providerSubscriptionId | typeof platformSubscriptions.providerCustomerId,
  value: string,
): Promise<PlatformSubscription | undefined> {
  return firstRow(db.select().from(platformSubscriptions).where(eq(column, value)).limit(1));
}

/** The seller's record, locked until the transaction `tx` ends. */
export async function lockSubscription(tx: Queryable, userId: string): Promise<PlatformSubscription | undefined> {
  return firstRow(
    tx.select().from(platformSubscriptions).where(eq(platformSubscriptions.userId, userId)).for('update'),
  );
}

export async function updateSubscription(db: Queryable, userId: string, values: SubscriptionValues): Promise<void> {
  await db.update(platformSubscriptions).set(values).where(eq(platformSubscriptions.userId, userId));
}

/** Inserts the seller's record `row`, or sets `set` on the one there is. */
export async function upsertSubscription(
  db: Queryable,
  row: typeof platformSubscriptions.$inferInsert,
  set: SubscriptionValues,
): Promise<void> {
  await db.insert(platformSubscriptions).values(row).onConflictDoUpdate({ target: platformSubscriptions.userId, set });
}

/** Keeps the first customer id a record got: a second checkout must not replace it. */
export async function setCustomerIfMissing(db: Queryable, userId: string, customerId: string): Promise<void> {
  await db
    .update(platformSubscriptions)
    .set({ providerCustomerId: customerId })
    .where(and(eq(platformSubscriptions.userId, userId), isNull(platformSubscriptions.providerCustomerId)));
}

export async function findSubscriptionOf(db: Queryable, userId: string): Promise<PlatformSubscription | undefined> {
  return firstRow(db.select().from(platformSubscriptions).where(eq(platformSubscriptions.userId, userId)).limit(1));
}

/** Inserts a trial's record unless the seller has one: true when this insert made it (two clicks racing: one wins). */
export async function insertTrialIfAbsent(
  db: Queryable,
  row: typeof platformSubscriptions.$inferInsert,
): Promise<boolean> {
  return hasAnyRow(
    db
      .insert(platformSubscriptions)
      .values(row)
      .onConflictDoNothing({ target: platformSubscriptions.userId })
      .returning({ userId: platformSubscriptions.userId }),
  );
}

/**
 * Per tier, in one statement: paying subscribers (active, or inactive while a failed payment is retried) and trials
 * still running at `now`. Tiers with neither are absent.
 */
export function countMembersByTier(
  db: Pick<Database, 'select'>,
  tierIds: string[],
  now: Date,
): Promise<{ tierId: string; subscribers: number; trials: number }[]> {
  const { status, trialEndsAt } = platformSubscriptions;
  return db
    .select({
      tierId: platformSubscriptions.tierId,
      subscribers: sql<number>`(count(*) filter (where ${status} in ('active', 'inactive')))::int`,
      trials: sql<number>`(count(*) filter (where ${status} = 'trial' and ${trialEndsAt} > ${now}))::int`,
    })
    .from(platformSubscriptions)
    .where(inArray(platformSubscriptions.tierId, tierIds))
    .groupBy(platformSubscriptions.tierId);
}
