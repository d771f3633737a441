import { PURCHASE_PAGE_PATH, type PurchasePage, salesMessages } from '../../../contract/sales.js';
import type { ConnectGateway } from '../../adapters/payments/payments.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import type { RequestHost } from '../../http/hosts.js';
import { repositoryUrlFor } from '../branding/branding.service.js';
import { getLicenseMailSeller, type LicenseMailSeller } from '../licenses/license-mail.service.js';
import { findOwnedPackageRow } from '../packages/packages.service.js';
import { findOwnedProduct } from '../products/products.service.js';
import { findHostSeller, findUserById, type SellerProfile } from '../users/users.service.js';
import { SELLER_CLOSED_MESSAGE } from './account-closing.service.js';
import { findEnabledPayoutAccount } from './payout.service.js';
import { findTargetPrices, type PackagePriceRow, type PriceTarget } from './pricing.repository.js';

// Sales (issue 11; DESIGN "Selling"): a buyer pays on the seller's repository host, in Stripe Checkout on the
// seller's connected account with the platform's 5% fee, or at once in test-sales mode (billing off). A paid sale
// becomes a grant of kind `purchase` through the licenses domain, which e-mails the holder in the seller's brand.
// Whatever tells us a sale is paid (the success page asking, or a webhook) re-reads Stripe and claims the sale
// with one conditional update, so that it is fulfilled exactly once.

//
// The use cases have a file each: this one holds what they share (the seller of a host, what is sold and its
// offer, the purchase page); checkout.service.ts starts a buyer's checkout and answers the success page;
// sale-fulfilment.service.ts claims a paid sale and gives the license; renewals.service.ts and refunds.service.ts
// apply a subscription's invoices and a payment's refund or lost dispute; test-purchase.service.ts is the seller's
// test purchase with billing off. Their queries are in sales.repository.ts.

export function isTestMode(ctx: AppContext): boolean {
  return ctx.payments.kind === 'off';
}

/** The Connect side of the payment provider; only called where test mode was ruled out. */
export function connectOf(ctx: AppContext): ConnectGateway {
  if (ctx.payments.kind !== 'stripe') throw new AppError('UNAVAILABLE', salesMessages.salesUnavailable);
  return ctx.payments.connect;
}

/** The seller whose repository host this is; 404 on the app's own host or the bare Composer host. */
export async function getHostSeller(ctx: AppContext, host: RequestHost): Promise<SellerProfile> {
  const seller = await findHostSeller(ctx, host);
  if (!seller) throw new AppError('NOT_FOUND', salesMessages.packageNotForSale);
  return seller;
}

async function activePrices(ctx: AppContext, target: PriceTarget): Promise<PackagePriceRow[]> {
  const prices = await findTargetPrices(ctx.db, target);
  return prices.filter((price) => price.isActive);
}

/** What a sale sells: the seller's package, or their product with its packages (issue 31). */
export type SaleItem = {
  id: string;
  name: string;
  description: string | null;
  isActive: boolean;
  target: PriceTarget;
  /** The product's packages; empty for a package. */
  packages: { id: string; name: string }[];
};

async function findSaleItem(ctx: AppContext, sellerId: string, target: PriceTarget): Promise<SaleItem | undefined> {
  if ('productId' in target) {
    const product = await findOwnedProduct(ctx.db, sellerId, target.productId);
    if (!product) return undefined;
    const { id, name, description, packages: contents } = product;
    // A product with no package left sells nothing.
    return { id, name, description, isActive: contents.length > 0, target: { productId: id }, packages: contents };
  }
  const pkg = await findOwnedPackageRow(ctx, sellerId, target.packageId);
  if (!pkg) return undefined;
  const { id, name, description, isActive } = pkg;
  return { id, name, description, isActive, target: { packageId: id }, packages: [] };
}

export function repositoryUrlOf(ctx: AppContext, seller: LicenseMailSeller): string {
  return repositoryUrlFor(ctx, { slug: seller.slug, brandDomain: seller.brand.verifiedDomain });
}

export function purchasePageUrl(
  repositoryUrl: string,
  target: string | PriceTarget,
  extra: Record<string, string> = {},
): string {
  const first: Record<string, string> =
    typeof target === 'string'
      ? { package: target }
      : 'productId' in target
        ? { product: target.productId }
        : { package: target.packageId };
  const query = new URLSearchParams({ ...first, ...extra });
  return `${repositoryUrl}${PURCHASE_PAGE_PATH}?${query}`;
}

/**
 * GET /api/purchase/packages/{id} and /api/purchase/products/{id} on the seller's host: what is sold (a product with
 * its packages) and its active tiers.
 */
export async function getPurchasePage(ctx: AppContext, host: RequestHost, target: PriceTarget): Promise<PurchasePage> {
  const seller = await getHostSeller(ctx, host);
  const item = await findSaleItem(ctx, seller.id, target);
  const tiers = item?.isActive ? await activePrices(ctx, item.target) : [];
  if (!item || tiers.length === 0) throw new AppError('NOT_FOUND', salesMessages.packageNotForSale);
  const sender = await getLicenseMailSeller(ctx, seller.id);
  return {
    package: { id: item.id, packageName: item.name, description: item.description },
    product: 'productId' in item.target ? { id: item.id, name: item.name, packages: item.packages } : null,
    tiers: tiers.map((tier) => ({
      id: tier.id,
      name: tier.name,
      description: tier.description,
      pricingType: tier.pricingType,
      interval: tier.interval,
      updateMonths: tier.updateMonths,
      trialDays: tier.trialDays,
      versionConstraint: tier.versionConstraint,
      priceCents: tier.priceCents,
      currency: tier.currency,
    })),
    canCheckout: await canSellerTakePayments(ctx, seller.id),
    repositoryUrl: repositoryUrlOf(ctx, sender),
  };
}

/** Whether a buyer can pay this seller: a payment provider and, with Stripe, a payout account that takes payments. */
async function canSellerTakePayments(ctx: AppContext, sellerId: string): Promise<boolean> {
  if (isTestMode(ctx)) return false;
  return Boolean(await findEnabledPayoutAccount(ctx, sellerId));
}

/** A buyer's checkout without a payment provider: refused, and nothing is recorded (issue 28). */
export function paymentsNotSetUp(): AppError {
  return new AppError('CONFLICT', salesMessages.paymentsNotSetUp);
}

export type SaleOffer = { seller: LicenseMailSeller; item: SaleItem; tier: PackagePriceRow; repositoryUrl: string };

/**
 * What a checkout sells, checked: the seller's active package, an active tier of it (the first when none is named),
 * the currency when the caller names one, and (with a provider) a payout account that can take payments.
 */
export async function getSaleOffer(
  ctx: AppContext,
  sellerId: string,
  target: PriceTarget,
  request: { tierId?: string; currency?: string; isBuyer?: boolean },
): Promise<SaleOffer & { payoutAccountId: string | null }> {
  // A closed account sells nothing (issue 35): its prices are inactive too, but a buyer is told why.
  if ((await findUserById(ctx, sellerId))?.closedAt) throw new AppError('CONFLICT', SELLER_CLOSED_MESSAGE);
  const item = await findSaleItem(ctx, sellerId, target);
  if (!item) throw new AppError('NOT_FOUND', salesMessages.packageNotForSale);
  if (!item.isActive) {
    throw new AppError('CONFLICT', salesMessages.packageInactive, {
      suggestion: 'Activate the package in Management before selling it',
    });
  }
  const tiers = await activePrices(ctx, item.target);
  let tier: PackagePriceRow | undefined;
  if (request.tierId !== undefined) {
    tier = tiers.find((candidate) => candidate.id === request.tierId);
    if (!tier) throw new AppError('NOT_FOUND', salesMessages.unknownTier);
  } else {
    tier = tiers[0];
    if (!tier) throw new AppError('CONFLICT', salesMessages.noPrices, { suggestion: salesMessages.noPricesSuggestion });
  }
  if (request.currency !== undefined && request.currency.trim().toLowerCase() !== tier.currency) {
    throw new AppError(
      'VALIDATION_FAILED',
      `${salesMessages.currencyMismatch}: this tier is priced in ${tier.currency}`,
    );
  }
  let payoutAccountId: string | null = null;
  if (!isTestMode(ctx)) {
    const account = await findEnabledPayoutAccount(ctx, sellerId);
    // A buyer is told what they can act on; the seller (API v1's links) what to do about it.
    if (!account && request.isBuyer) throw paymentsNotSetUp();
    if (!account) {
      throw new AppError('CONFLICT', salesMessages.noPayoutAccount, {
        suggestion: salesMessages.noPayoutAccountSuggestion,
      });
    }
    payoutAccountId = account.stripeAccountId;
  }
  const seller = await getLicenseMailSeller(ctx, sellerId);
  return { seller, item, tier, repositoryUrl: repositoryUrlOf(ctx, seller), payoutAccountId };
}

/** Checkout's return addresses must be web addresses (they are sent to Stripe and shown to the buyer). */
export function parseReturnUrl(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return value;
  } catch {
    // answered below
  }
  throw new AppError('VALIDATION_FAILED', 'successUrl and cancelUrl must be http or https addresses');
}
