import { and, asc, count, eq, inArray, isNull, ne, or } from 'drizzle-orm';
import { isEntityId } from '../../../contract/ids.js';
import {
  MAX_PRICE_CENTS,
  MAX_PRICES_PER_PACKAGE,
  MAX_TRIAL_DAYS,
  MAX_UPDATE_MONTHS,
  MIN_PRICE_CENTS,
  type PackagePrice,
  type PackagePriceInput,
  type ReplacePricesInput,
  SALE_CURRENCIES,
  salesMessages,
} from '../../../contract/sales.js';
import type { AppContext } from '../../context.js';
import { packagePrices, sales } from '../../db/schema/index.js';
import { AppError } from '../../http/errors.js';
import { checkedConstraint } from '../licenses/license-terms.service.js';
import { getOwnedPackage } from '../packages/packages.service.js';
import { getOwnedProduct } from '../products/products.service.js';

// The prices of a seller's packages (pricing tiers): one-time with N months of updates, or a monthly/yearly
// subscription with optional trial days. One currency per seller, so that every sum of sales is a true amount.

export type PackagePriceRow = typeof packagePrices.$inferSelect;

type ParsedPrice = Omit<typeof packagePrices.$inferInsert, 'packageId' | 'productId' | 'sellerId' | 'sortOrder'> & {
  id?: string;
};

/** What a price sells: one package, or a product of several (issue 31). */
export type PriceTarget = { packageId: string } | { productId: string };

/** The price column that names the target's kind. */
const targetColumn = (target: PriceTarget) =>
  'productId' in target ? packagePrices.productId : packagePrices.packageId;
const targetId = (target: PriceTarget) => ('productId' in target ? target.productId : target.packageId);

/** The seller's own package or product, or 404: the same answer for another seller's and an unknown id. */
async function assertOwnedTarget(ctx: AppContext, sellerId: string, target: PriceTarget): Promise<void> {
  if ('productId' in target) await getOwnedProduct(ctx, sellerId, target.productId);
  else await getOwnedPackage(ctx, sellerId, target.packageId);
}

const isWholeNumberIn = (value: unknown, min: number, max: number): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;

/** Checks one tier against the rules and answers it normalised, or throws the rule's sentence. */
export function parsePrice(input: PackagePriceInput): ParsedPrice {
  const name = input.name.trim();
  if (name === '') throw new AppError('VALIDATION_FAILED', salesMessages.nameRequired);
  if (!isWholeNumberIn(input.priceCents, MIN_PRICE_CENTS, MAX_PRICE_CENTS)) {
    throw new AppError('VALIDATION_FAILED', salesMessages.priceInvalid);
  }
  const currency = input.currency.trim().toLowerCase();
  if (!(SALE_CURRENCIES as readonly string[]).includes(currency)) {
    throw new AppError('VALIDATION_FAILED', salesMessages.currencyInvalid);
  }
  const common = {
    ...(input.id ? { id: input.id } : {}),
    name,
    description: input.description?.trim() || null,
    // A range the license bought with this price covers (issue 31), checked as a license's own is.
    versionConstraint: input.versionConstraint ? checkedConstraint(input.versionConstraint) : null,
    pricingType: input.pricingType,
    priceCents: input.priceCents,
    currency,
    isActive: input.isActive ?? true,
  };
  if (input.pricingType === 'one_time') {
    if (input.trialDays) throw new AppError('VALIDATION_FAILED', salesMessages.trialOnlyForSubscriptions);
    if (!isWholeNumberIn(input.updateMonths, 1, MAX_UPDATE_MONTHS)) {
      throw new AppError('VALIDATION_FAILED', salesMessages.updateMonthsInvalid);
    }
    return { ...common, interval: null, updateMonths: input.updateMonths, trialDays: null };
  }
  if (!input.interval) throw new AppError('VALIDATION_FAILED', salesMessages.intervalRequired);
  const trialDays = input.trialDays ?? 0;
  if (!isWholeNumberIn(trialDays, 0, MAX_TRIAL_DAYS)) {
    throw new AppError('VALIDATION_FAILED', salesMessages.trialDaysInvalid);
  }
  return { ...common, interval: input.interval, updateMonths: null, trialDays: trialDays || null };
}

export function presentPrice(price: PackagePriceRow, salesCount: number): PackagePrice {
  return {
    id: price.id,
    packageId: price.packageId,
    productId: price.productId,
    name: price.name,
    description: price.description,
    pricingType: price.pricingType,
    interval: price.interval,
    updateMonths: price.updateMonths,
    trialDays: price.trialDays,
    versionConstraint: price.versionConstraint,
    priceCents: price.priceCents,
    currency: price.currency,
    isActive: price.isActive,
    sortOrder: price.sortOrder,
    salesCount,
  };
}

/** Every tier of the given packages, in the seller's order. */
export async function findPackagePrices(ctx: AppContext, packageIds: string[]): Promise<PackagePriceRow[]> {
  if (packageIds.length === 0) return [];
  return ctx.db
    .select()
    .from(packagePrices)
    .where(inArray(packagePrices.packageId, packageIds))
    .orderBy(asc(packagePrices.sortOrder), asc(packagePrices.createdAt));
}

/** Every tier of one package or product, in the seller's order. */
export async function findTargetPrices(ctx: AppContext, target: PriceTarget): Promise<PackagePriceRow[]> {
  return ctx.db
    .select()
    .from(packagePrices)
    .where(eq(targetColumn(target), targetId(target)))
    .orderBy(asc(packagePrices.sortOrder), asc(packagePrices.createdAt));
}

async function salesCounts(ctx: AppContext, priceIds: string[]): Promise<Map<string, number>> {
  if (priceIds.length === 0) return new Map();
  const rows = await ctx.db
    .select({ priceId: sales.priceId, total: count() })
    .from(sales)
    .where(and(inArray(sales.priceId, priceIds), ne(sales.status, 'pending'), ne(sales.status, 'expired')))
    .groupBy(sales.priceId);
  return new Map(rows.map((row) => [row.priceId ?? '', row.total]));
}

export async function listPrices(ctx: AppContext, sellerId: string, target: PriceTarget): Promise<PackagePrice[]> {
  await assertOwnedTarget(ctx, sellerId, target);
  const prices = await findTargetPrices(ctx, target);
  const counts = await salesCounts(
    ctx,
    prices.map((price) => price.id),
  );
  return prices.map((price) => presentPrice(price, counts.get(price.id) ?? 0));
}

/** The currency of the seller's prices on other packages and products than `except`, if they have any. */
async function sellerCurrency(ctx: AppContext, sellerId: string, except: PriceTarget): Promise<string | undefined> {
  const column = targetColumn(except);
  const [row] = await ctx.db
    .select({ currency: packagePrices.currency })
    .from(packagePrices)
    // A price of the other kind has null here: it is another target's, and counts.
    .where(and(eq(packagePrices.sellerId, sellerId), or(isNull(column), ne(column, targetId(except)))))
    .limit(1);
  return row?.currency;
}

/**
 * PUT /api/repositories/{id}/pricing-tiers and /api/products/{productId}/pricing-tiers: the target's tiers become the list sent. A tier with a known id is
 * updated, one without is created, one left out is deleted, or deactivated when it has sales. Every tier is checked
 * before anything is written; one bad tier changes nothing.
 */
export async function replacePrices(
  ctx: AppContext,
  sellerId: string,
  target: PriceTarget,
  input: ReplacePricesInput,
): Promise<PackagePrice[]> {
  await assertOwnedTarget(ctx, sellerId, target);
  const column = targetColumn(target);
  const id = targetId(target);
  if (input.tiers.length > MAX_PRICES_PER_PACKAGE) throw new AppError('VALIDATION_FAILED', salesMessages.tooManyTiers);
  const parsed = input.tiers.map(parsePrice);
  const currencies = new Set(parsed.map((tier) => tier.currency));
  const existingCurrency = await sellerCurrency(ctx, sellerId, target);
  if (currencies.size > 1 || (existingCurrency && parsed.some((tier) => tier.currency !== existingCurrency))) {
    throw new AppError('VALIDATION_FAILED', salesMessages.currencyMismatch, {
      suggestion: salesMessages.currencyMismatchSuggestion,
    });
  }
  const existing = await findTargetPrices(ctx, target);
  const existingIds = new Set(existing.map((price) => price.id));
  for (const tier of parsed) {
    if (tier.id !== undefined && (!isEntityId(tier.id) || !existingIds.has(tier.id))) {
      throw new AppError('NOT_FOUND', salesMessages.unknownTier);
    }
  }
  const keptIds = new Set(parsed.flatMap((tier) => (tier.id ? [tier.id] : [])));
  const counts = await salesCounts(ctx, [...existingIds]);
  const now = ctx.clock.now();

  await ctx.db.transaction(async (tx) => {
    for (const [sortOrder, tier] of parsed.entries()) {
      const { id: tierId, ...values } = tier;
      if (tierId) {
        await tx
          .update(packagePrices)
          .set({ ...values, sortOrder, updatedAt: now })
          .where(and(eq(packagePrices.id, tierId), eq(column, id)));
      } else {
        await tx
          .insert(packagePrices)
          .values({ ...values, ...target, sellerId, sortOrder, createdAt: now, updatedAt: now });
      }
    }
    for (const price of existing) {
      if (keptIds.has(price.id)) continue;
      if ((counts.get(price.id) ?? 0) > 0) {
        await tx.update(packagePrices).set({ isActive: false, updatedAt: now }).where(eq(packagePrices.id, price.id));
      } else {
        await tx.delete(packagePrices).where(eq(packagePrices.id, price.id));
      }
    }
  });
  return listPrices(ctx, sellerId, target);
}
