import { and, eq, isNull } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { platformInvoices, platformSubscriptions, stripePrices, users } from '../../db/schema/index.js';
import type { PlatformSubscription } from '../subscriptions/subscriptions.service.js';

// The queries of platform billing: the Stripe prices made for tiers, the sellers' plan records as the billing side
// writes them, and the platform invoices paid. Rules stay in the service and the provider sync.

type Queryable = Pick<Database, 'select' | 'insert' | 'update'>;
export type PriceMode = 'test' | 'live';
export type SubscriptionValues = Partial<Omit<typeof platformSubscriptions.$inferInsert, 'userId' | 'createdAt'>>;

export async function findTierPriceId(
  db: Queryable,
  tier: { id: string; priceCents: number; currency: string },
  mode: PriceMode,
): Promise<string | undefined> {
  const [known] = await db
    .select({ priceId: stripePrices.priceId })
    .from(stripePrices)
    .where(
      and(
        eq(stripePrices.tierId, tier.id),
        eq(stripePrices.mode, mode),
        eq(stripePrices.priceCents, tier.priceCents),
        eq(stripePrices.currency, tier.currency),
      ),
    )
    .limit(1);
  return known?.priceId;
}

/** Two racing processes may both remember a price: either row is the right one. */
export async function rememberTierPrice(db: Queryable, price: typeof stripePrices.$inferInsert): Promise<void> {
  await db.insert(stripePrices).values(price).onConflictDoNothing();
}

export async function findTierIdForPrice(db: Queryable, priceId: string, mode: PriceMode) {
  const [row] = await db
    .select({ tierId: stripePrices.tierId })
    .from(stripePrices)
    .where(and(eq(stripePrices.priceId, priceId), eq(stripePrices.mode, mode)))
    .limit(1);
  return row?.tierId;
}

export async function findSubscriptionBy(
  db: Queryable,
  column: typeof platformSubscriptions.providerSubscriptionId | typeof platformSubscriptions.providerCustomerId,
  value: string,
): Promise<PlatformSubscription | undefined> {
  const [row] = await db.select().from(platformSubscriptions).where(eq(column, value)).limit(1);
  return row;
}

export async function sellerExists(db: Queryable, userId: string): Promise<boolean> {
  const [owner] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).limit(1);
  return owner !== undefined;
}

/** The seller's record, locked until the transaction `tx` ends. */
export async function lockSubscription(tx: Queryable, userId: string): Promise<PlatformSubscription | undefined> {
  const [current] = await tx
    .select()
    .from(platformSubscriptions)
    .where(eq(platformSubscriptions.userId, userId))
    .for('update');
  return current;
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

/** A paid platform invoice, once: the same invoice reported again (invoice.paid and payment_succeeded) adds nothing. */
export async function recordPlatformInvoice(
  db: Queryable,
  invoice: typeof platformInvoices.$inferInsert,
): Promise<boolean> {
  const inserted = await db
    .insert(platformInvoices)
    .values(invoice)
    .onConflictDoNothing()
    .returning({ id: platformInvoices.id });
  return inserted.length > 0;
}
