import { and, eq } from 'drizzle-orm';
import { firstRow, hasAnyRow } from '../../db/result-rows.js';
import { payoutAccounts } from '../../db/schema/index.js';
import type { Queryable } from './sales.repository.js';

// The queries of sellers' payout accounts (Stripe Connect accounts, one per seller and mode).

export type PayoutRow = typeof payoutAccounts.$inferSelect;
export type NewPayoutRow = typeof payoutAccounts.$inferInsert;
/** What Stripe says of an account, as stored. */
export type PayoutState = Pick<
  NewPayoutRow,
  'chargesEnabled' | 'payoutsEnabled' | 'detailsSubmitted' | 'disabledReason' | 'updatedAt'
>;

export async function findPayoutRow(
  db: Queryable,
  sellerId: string,
  mode: 'test' | 'live',
): Promise<PayoutRow | undefined> {
  return firstRow(
    db
      .select()
      .from(payoutAccounts)
      .where(and(eq(payoutAccounts.sellerId, sellerId), eq(payoutAccounts.mode, mode)))
      .limit(1),
  );
}

export async function isKnownPayoutAccount(db: Queryable, stripeAccountId: string): Promise<boolean> {
  return hasAnyRow(
    db
      .select({ id: payoutAccounts.stripeAccountId })
      .from(payoutAccounts)
      .where(eq(payoutAccounts.stripeAccountId, stripeAccountId))
      .limit(1),
  );
}

export async function storePayoutState(
  db: Queryable,
  stripeAccountId: string,
  state: PayoutState,
): Promise<PayoutRow | undefined> {
  return firstRow(
    db.update(payoutAccounts).set(state).where(eq(payoutAccounts.stripeAccountId, stripeAccountId)).returning(),
  );
}

export async function deleteSellerPayoutAccounts(db: Queryable, sellerId: string): Promise<void> {
  await db.delete(payoutAccounts).where(eq(payoutAccounts.sellerId, sellerId));
}

/** Undefined when the seller has one already (two clicks at once: the first stored wins). */
export async function insertPayoutRow(db: Queryable, values: NewPayoutRow): Promise<PayoutRow | undefined> {
  return firstRow(db.insert(payoutAccounts).values(values).onConflictDoNothing().returning());
}
