import { and, eq, isNotNull } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { firstRow, writtenRow } from '../../db/result-rows.js';
import { packagePrices, packages, sales } from '../../db/schema/index.js';

// The queries of the sales table (and the package and price rows a sale reads) that the checkout, fulfilment,
// renewal and refund services stand on. Each takes the database or an open transaction.

/** The database or an open transaction. */
export type Queryable = Pick<Database, 'select' | 'insert' | 'update' | 'delete'>;
export type Sale = typeof sales.$inferSelect;
export type NewSale = typeof sales.$inferInsert;
/** What a sale's claim writes: the payment's facts. */
export type SalePayment = Pick<
  NewSale,
  'paidAt' | 'customerEmail' | 'amountCents' | 'feeCents' | 'paymentIntentId' | 'subscriptionId'
>;
/** What a fulfilled sale keeps of the license it gave. */
export type SaleLicense = Pick<NewSale, 'customerId' | 'grantId' | 'hadToken' | 'sealedToken' | 'tokenVisibleUntil'>;

export async function findSale(db: Queryable, saleId: string): Promise<Sale | undefined> {
  return firstRow(db.select().from(sales).where(eq(sales.id, saleId)).limit(1));
}

export async function findSaleBySession(db: Queryable, sessionId: string): Promise<Sale | undefined> {
  return firstRow(db.select().from(sales).where(eq(sales.checkoutSessionId, sessionId)).limit(1));
}

/** The sales a payment of the seller's account paid (a purchase or a renewal). */
export function findSalesPaidBy(db: Queryable, account: string, paymentIntentId: string): Promise<Sale[]> {
  return db
    .select()
    .from(sales)
    .where(and(eq(sales.stripeAccountId, account), eq(sales.paymentIntentId, paymentIntentId)));
}

/** The purchase that started a subscription of the seller's account. */
export async function findSubscriptionPurchase(
  db: Queryable,
  account: string,
  subscriptionId: string,
): Promise<Sale | undefined> {
  return firstRow(
    db
      .select()
      .from(sales)
      .where(
        and(eq(sales.stripeAccountId, account), eq(sales.subscriptionId, subscriptionId), eq(sales.kind, 'purchase')),
      )
      .limit(1),
  );
}

/** The grant of a subscription's purchase (a renewal's refund ends it). */
export async function findSubscriptionGrantId(db: Queryable, subscriptionId: string): Promise<string | null> {
  const [purchase] = await db
    .select({ grantId: sales.grantId })
    .from(sales)
    .where(and(eq(sales.subscriptionId, subscriptionId), eq(sales.kind, 'purchase')))
    .limit(1);
  return purchase?.grantId ?? null;
}

export async function insertSale(db: Queryable, values: NewSale): Promise<Sale> {
  return writtenRow(db.insert(sales).values(values).returning(), 'The new sale');
}

/** A renewal's sale, once per invoice: undefined when the invoice's sale exists already. */
export async function insertRenewal(db: Queryable, values: NewSale): Promise<Sale | undefined> {
  return firstRow(db.insert(sales).values(values).onConflictDoNothing().returning());
}

export async function setCheckoutSession(db: Queryable, saleId: string, checkoutSessionId: string): Promise<void> {
  await db.update(sales).set({ checkoutSessionId }).where(eq(sales.id, saleId));
}

export async function setPaymentIntent(db: Queryable, saleId: string, paymentIntentId: string): Promise<void> {
  await db.update(sales).set({ paymentIntentId }).where(eq(sales.id, saleId));
}

/** Marks a pending sale paid; undefined when it is no longer pending (another caller claimed it). */
export async function claimPendingSale(db: Queryable, saleId: string, payment: SalePayment): Promise<Sale | undefined> {
  return firstRow(
    db
      .update(sales)
      .set({ status: 'paid', ...payment })
      .where(and(eq(sales.id, saleId), eq(sales.status, 'pending')))
      .returning(),
  );
}

export async function recordSaleLicense(
  db: Queryable,
  saleId: string,
  license: SaleLicense,
): Promise<Sale | undefined> {
  return firstRow(db.update(sales).set(license).where(eq(sales.id, saleId)).returning());
}

/** A pending sale whose checkout expired; undefined when it is no longer pending. */
export async function expirePendingSale(db: Queryable, saleId: string, endedAt: Date): Promise<Sale | undefined> {
  return firstRow(
    db
      .update(sales)
      .set({ status: 'expired', endedAt })
      .where(and(eq(sales.id, saleId), eq(sales.status, 'pending')))
      .returning(),
  );
}

/** A paid sale ended by a refund or a lost dispute; undefined when it is no longer paid. */
export async function endPaidSale(
  db: Queryable,
  saleId: string,
  status: 'refunded' | 'disputed',
  endedAt: Date,
): Promise<Sale | undefined> {
  return firstRow(
    db
      .update(sales)
      .set({ status, endedAt })
      .where(and(eq(sales.id, saleId), eq(sales.status, 'paid')))
      .returning(),
  );
}

export async function deletePendingSale(db: Queryable, saleId: string): Promise<void> {
  await db.delete(sales).where(and(eq(sales.id, saleId), eq(sales.status, 'pending')));
}

export async function findPackageName(db: Queryable, packageId: string): Promise<string | undefined> {
  const [pkg] = await db.select({ name: packages.name }).from(packages).where(eq(packages.id, packageId));
  return pkg?.name;
}

export async function findPrice(db: Queryable, priceId: string) {
  return firstRow(db.select().from(packagePrices).where(eq(packagePrices.id, priceId)).limit(1));
}

/** Replaces the buyers' addresses on the seller's sales and drops any sealed token still waiting for its buyer. */
export async function eraseBuyerEmails(db: Pick<Database, 'update'>, sellerId: string, placeholder: string) {
  const erased = await db
    .update(sales)
    .set({ customerEmail: placeholder, sealedToken: null })
    .where(and(eq(sales.sellerId, sellerId), isNotNull(sales.customerEmail)))
    .returning({ id: sales.id });
  return erased.length;
}
