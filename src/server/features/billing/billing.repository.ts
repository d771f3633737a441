import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { hasAnyRow } from '../../db/result-rows.js';
import { platformInvoices, stripePrices, users } from '../../db/schema/index.js';

// The queries of platform billing: the Stripe prices made for tiers and the platform invoices paid. The sellers'
// plan records belong to subscriptions (subscriptions.repository.ts). Rules stay in the service and the provider sync.

type Queryable = Pick<Database, 'select' | 'insert' | 'update'>;
export type PriceMode = 'test' | 'live';

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

export async function sellerExists(db: Queryable, userId: string): Promise<boolean> {
  return hasAnyRow(db.select({ id: users.id }).from(users).where(eq(users.id, userId)).limit(1));
}

/** A paid platform invoice, once: the same invoice reported again (invoice.paid and payment_succeeded) adds nothing. */
export async function recordPlatformInvoice(
  db: Queryable,
  invoice: typeof platformInvoices.$inferInsert,
): Promise<boolean> {
  return hasAnyRow(
    db.insert(platformInvoices).values(invoice).onConflictDoNothing().returning({ id: platformInvoices.id }),
  );
}
