import { and, eq, isNotNull } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { packagePrices, sales } from '../../db/schema/index.js';

// Closing a seller's account (issue 35), called by the accounts domain inside its transaction: every price stops
// being offered (getSaleOffer also refuses a closed seller's checkout), and after the retention the buyers' e-mail
// addresses give way to a placeholder. The sales themselves stay: amounts, dates, currency and invoice ids are what
// tax law requires the seller (and the platform) to keep.

/** What a buyer reads at checkout once the seller has closed the account. */
export const SELLER_CLOSED_MESSAGE =
  'This seller has closed their account and no longer sells packages. Contact the seller for anything you bought.';

/** The placeholder of an erased buyer's address on a kept sale. */
export const ERASED_BUYER_EMAIL = 'erased@erased.invalid';

/** Sets every price of the seller inactive; answers how many were active. */
export async function deactivateAllPrices(db: Pick<Database, 'update'>, sellerId: string, now: Date): Promise<number> {
  const stopped = await db
    .update(packagePrices)
    .set({ isActive: false, updatedAt: now })
    .where(and(eq(packagePrices.sellerId, sellerId), eq(packagePrices.isActive, true)))
    .returning({ id: packagePrices.id });
  return stopped.length;
}

/** Replaces the buyers' addresses on the seller's sales and drops any sealed token still waiting for its buyer. */
export async function eraseBuyerPersonalData(db: Pick<Database, 'update'>, sellerId: string): Promise<number> {
  const erased = await db
    .update(sales)
    .set({ customerEmail: ERASED_BUYER_EMAIL, sealedToken: null })
    .where(and(eq(sales.sellerId, sellerId), isNotNull(sales.customerEmail)))
    .returning({ id: sales.id });
  return erased.length;
}
