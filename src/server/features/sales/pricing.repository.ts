import { and, asc, count, eq, inArray, isNull, ne, or } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { packagePrices, sales } from '../../db/schema/index.js';
import type { Queryable } from './sales.repository.js';

// The queries of package and product prices (pricing tiers) that pricing.service.ts's rules stand on.

export type PackagePriceRow = typeof packagePrices.$inferSelect;
export type NewPackagePrice = typeof packagePrices.$inferInsert;

/** What a price sells: one package, or a product of several (issue 31). */
export type PriceTarget = { packageId: string } | { productId: string };

/** The price column that names the target's kind. */
const targetColumn = (target: PriceTarget) =>
  'productId' in target ? packagePrices.productId : packagePrices.packageId;
const targetId = (target: PriceTarget) => ('productId' in target ? target.productId : target.packageId);

/** Every tier of the given packages, in the seller's order. */
export async function findPackagePrices(db: Queryable, packageIds: string[]): Promise<PackagePriceRow[]> {
  if (packageIds.length === 0) return [];
  return db
    .select()
    .from(packagePrices)
    .where(inArray(packagePrices.packageId, packageIds))
    .orderBy(asc(packagePrices.sortOrder), asc(packagePrices.createdAt));
}

/** Every tier of one package or product, in the seller's order. */
export async function findTargetPrices(db: Queryable, target: PriceTarget): Promise<PackagePriceRow[]> {
  return db
    .select()
    .from(packagePrices)
    .where(eq(targetColumn(target), targetId(target)))
    .orderBy(asc(packagePrices.sortOrder), asc(packagePrices.createdAt));
}

/** How many sales (neither pending nor expired) each price has. */
export async function countSalesByPrice(db: Queryable, priceIds: string[]): Promise<Map<string, number>> {
  if (priceIds.length === 0) return new Map();
  const rows = await db
    .select({ priceId: sales.priceId, total: count() })
    .from(sales)
    .where(and(inArray(sales.priceId, priceIds), ne(sales.status, 'pending'), ne(sales.status, 'expired')))
    .groupBy(sales.priceId);
  return new Map(rows.map((row) => [row.priceId ?? '', row.total]));
}

/** The currency of the seller's prices, on other packages and products than `except` when named. */
export async function findSellerPriceCurrency(
  db: Queryable,
  sellerId: string,
  except?: PriceTarget,
): Promise<string | undefined> {
  const [row] = await db
    .select({ currency: packagePrices.currency })
    .from(packagePrices)
    // A price of the other kind has null here: it is another target's, and counts.
    .where(
      and(
        eq(packagePrices.sellerId, sellerId),
        except ? or(isNull(targetColumn(except)), ne(targetColumn(except), targetId(except))) : undefined,
      ),
    )
    .limit(1);
  return row?.currency;
}

/** Updates a tier of the target (a tier of another target is left alone). */
export async function updateTargetPrice(
  db: Queryable,
  target: PriceTarget,
  priceId: string,
  values: Partial<NewPackagePrice>,
): Promise<void> {
  await db
    .update(packagePrices)
    .set(values)
    .where(and(eq(packagePrices.id, priceId), eq(targetColumn(target), targetId(target))));
}

export async function insertPrice(db: Queryable, values: NewPackagePrice): Promise<void> {
  await db.insert(packagePrices).values(values);
}

export async function deactivatePrice(db: Queryable, priceId: string, now: Date): Promise<void> {
  await db.update(packagePrices).set({ isActive: false, updatedAt: now }).where(eq(packagePrices.id, priceId));
}

export async function deletePrice(db: Queryable, priceId: string): Promise<void> {
  await db.delete(packagePrices).where(eq(packagePrices.id, priceId));
}

/** Sets every price of the seller inactive; answers how many were active. */
export async function deactivateSellerPrices(
  db: Pick<Database, 'update'>,
  sellerId: string,
  now: Date,
): Promise<number> {
  const stopped = await db
    .update(packagePrices)
    .set({ isActive: false, updatedAt: now })
    .where(and(eq(packagePrices.sellerId, sellerId), eq(packagePrices.isActive, true)))
    .returning({ id: packagePrices.id });
  return stopped.length;
}
