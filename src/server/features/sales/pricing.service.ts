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
import { AppError } from '../../http/errors.js';
import { checkedConstraint } from '../licenses/license-terms.service.js';
import { getOwnedPackage } from '../packages/packages.service.js';
import { getOwnedProduct } from '../products/products.service.js';
import {
  countSalesByPrice,
  deactivatePrice,
  deletePrice,
  findSellerPriceCurrency,
  findTargetPrices,
  insertPrice,
  type NewPackagePrice,
  type PackagePriceRow,
  type PriceTarget,
  updateTargetPrice,
} from './pricing.repository.js';

// The prices of a seller's packages (pricing tiers): one-time with N months of updates, or a monthly/yearly
// subscription with optional trial days. One currency per seller, so that every sum of sales is a true amount.

type ParsedPrice = Omit<NewPackagePrice, 'packageId' | 'productId' | 'sellerId' | 'sortOrder'> & { id?: string };

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

export async function listPrices(ctx: AppContext, sellerId: string, target: PriceTarget): Promise<PackagePrice[]> {
  await assertOwnedTarget(ctx, sellerId, target);
  const prices = await findTargetPrices(ctx.db, target);
  const counts = await countSalesByPrice(
    ctx.db,
    prices.map((price) => price.id),
  );
  return prices.map((price) => presentPrice(price, counts.get(price.id) ?? 0));
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
  if (input.tiers.length > MAX_PRICES_PER_PACKAGE) throw new AppError('VALIDATION_FAILED', salesMessages.tooManyTiers);
  const parsed = input.tiers.map(parsePrice);
  const currencies = new Set(parsed.map((tier) => tier.currency));
  const existingCurrency = await findSellerPriceCurrency(ctx.db, sellerId, target);
  if (currencies.size > 1 || (existingCurrency && parsed.some((tier) => tier.currency !== existingCurrency))) {
    throw new AppError('VALIDATION_FAILED', salesMessages.currencyMismatch, {
      suggestion: salesMessages.currencyMismatchSuggestion,
    });
  }
  const existing = await findTargetPrices(ctx.db, target);
  const existingIds = new Set(existing.map((price) => price.id));
  for (const tier of parsed) {
    if (tier.id !== undefined && (!isEntityId(tier.id) || !existingIds.has(tier.id))) {
      throw new AppError('NOT_FOUND', salesMessages.unknownTier);
    }
  }
  const keptIds = new Set(parsed.flatMap((tier) => (tier.id ? [tier.id] : [])));
  const counts = await countSalesByPrice(ctx.db, [...existingIds]);
  const now = ctx.clock.now();

  await ctx.db.transaction(async (tx) => {
    for (const [sortOrder, tier] of parsed.entries()) {
      const { id: tierId, ...values } = tier;
      if (tierId) await updateTargetPrice(tx, target, tierId, { ...values, sortOrder, updatedAt: now });
      else await insertPrice(tx, { ...values, ...target, sellerId, sortOrder, createdAt: now, updatedAt: now });
    }
    for (const price of existing) {
      if (keptIds.has(price.id)) continue;
      if ((counts.get(price.id) ?? 0) > 0) await deactivatePrice(tx, price.id, now);
      else await deletePrice(tx, price.id);
    }
  });
  return listPrices(ctx, sellerId, target);
}
