import { PURCHASE_CHECKOUT_PATH } from '../../../contract/sales.js';
import type { AppContext } from '../../context.js';
import { parseHolderEmail } from '../licenses/grants.service.js';
import { getLicenseMailSeller } from '../licenses/license-mail.service.js';
import { findPackagePrices, type PackagePriceRow, type PriceTarget } from './pricing.repository.js';
import { signPurchaseReturn } from './purchase-return.js';
import { getSaleOffer, parseReturnUrl, purchasePageUrl, repositoryUrlOf, type SaleItem } from './sales.service.js';

// What API v1 shows of selling (spec §3 "API v1 package", "Purchase-links response"): a package's prices and the
// links that sell it, all on the seller's repository host (white-label; the verified custom domain when there is one).

export type PackagePricing = {
  pricingType: string | null;
  priceCents: number | null;
  currency: string | null;
  purchaseUrl: string | null;
  directPurchaseUrl: string | null;
  pricingTiers: Array<{
    id: string;
    name: string;
    description: string | null;
    pricingType: string;
    interval: string | null;
    updateMonths: number | null;
    priceCents: number;
    currency: string;
    trialDays: number;
    isActive: boolean;
  }>;
};

/**
 * A buy link for one tier (GET on the seller's host): it answers with a redirect to the purchase page carrying the
 * same fields, whose Buy button starts the checkout; opening it records nothing. `sig` signs the return addresses.
 */
function directCheckoutUrl(
  repositoryUrl: string,
  packageId: string,
  tierId: string,
  extra: { email?: string; successUrl?: string; cancelUrl?: string; sig?: string } = {},
): string {
  const query = new URLSearchParams({ package: packageId, tier: tierId });
  for (const [key, value] of Object.entries(extra)) if (value) query.set(key, value);
  return `${repositoryUrl}${PURCHASE_CHECKOUT_PATH}?${query}`;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The buy button a seller pastes into their own site: a link to the purchase page, opened in a new tab. */
function buyButtonCode(purchasePage: string, itemName: string): string {
  return `<a href="${escapeHtml(purchasePage)}" class="packgate-buy-button" target="_blank" rel="noopener">Buy ${escapeHtml(itemName)}</a>`;
}

function presentPricing(
  repositoryUrl: string,
  pkg: { id: string; isActive: boolean },
  prices: PackagePriceRow[],
): PackagePricing {
  // The first active tier in the seller's order is the package's price (the purchase page preselects it).
  const main = pkg.isActive ? prices.find((price) => price.isActive) : undefined;
  return {
    pricingType: main?.pricingType ?? null,
    priceCents: main?.priceCents ?? null,
    currency: main?.currency ?? null,
    purchaseUrl: main ? purchasePageUrl(repositoryUrl, pkg.id) : null,
    directPurchaseUrl: main ? directCheckoutUrl(repositoryUrl, pkg.id, main.id) : null,
    pricingTiers: prices.map((price) => ({
      id: price.id,
      name: price.name,
      description: price.description,
      pricingType: price.pricingType,
      interval: price.interval,
      updateMonths: price.updateMonths,
      priceCents: price.priceCents,
      currency: price.currency,
      trialDays: price.trialDays ?? 0,
      isActive: price.isActive,
    })),
  };
}

/** The pricing fields of the seller's packages, by package id. */
export async function getPackagesPricing(
  ctx: AppContext,
  sellerId: string,
  owned: Array<{ id: string; isActive: boolean }>,
): Promise<Map<string, PackagePricing>> {
  const [prices, sender] = await Promise.all([
    findPackagePrices(
      ctx.db,
      owned.map((pkg) => pkg.id),
    ),
    getLicenseMailSeller(ctx, sellerId),
  ]);
  const repositoryUrl = repositoryUrlOf(ctx, sender);
  return new Map(
    owned.map((pkg) => [
      pkg.id,
      presentPricing(
        repositoryUrl,
        pkg,
        prices.filter((price) => price.packageId === pkg.id),
      ),
    ]),
  );
}

export type PurchaseLinksRequest = {
  tierId?: string;
  customerEmail?: string;
  successUrl?: string;
  cancelUrl?: string;
  currency?: string;
};

/** The fields a direct buy link carries: the tier, and the e-mail and signed return addresses when asked. */
export type DirectCheckoutFields = {
  tier: string;
  email?: string;
  successUrl?: string;
  cancelUrl?: string;
  sig?: string;
};

/**
 * A package's and a product's purchase links: the request's e-mail and return addresses checked, the offer a
 * checkout would make (getSaleOffer refuses what a checkout would refuse), the purchase page with the tier (and the
 * e-mail), the direct buy link `directCheckout` builds for the item, and a buy button. Changes nothing.
 */
export async function sellingLinks(
  ctx: AppContext,
  sellerId: string,
  target: PriceTarget,
  input: PurchaseLinksRequest,
  directCheckout: (repositoryUrl: string, item: SaleItem, fields: DirectCheckoutFields) => string,
): Promise<{ item: SaleItem; tierId: string; links: PurchaseLinks['links'] }> {
  const email = input.customerEmail ? parseHolderEmail(input.customerEmail) : undefined;
  const successUrl = parseReturnUrl(input.successUrl);
  const cancelUrl = parseReturnUrl(input.cancelUrl);
  const { item, tier, repositoryUrl } = await getSaleOffer(ctx, sellerId, target, {
    tierId: input.tierId,
    currency: input.currency,
  });
  const purchasePage = purchasePageUrl(repositoryUrl, item.target, { tier: tier.id, ...(email ? { email } : {}) });
  // The return addresses are the seller's, signed against the sale item's id (a package's or a product's): a
  // buyer's request cannot name others, and checkout checks them against the item it sells (purchase-return.ts).
  const sig = signPurchaseReturn(ctx.config.secretKey, { packageId: item.id, successUrl, cancelUrl });
  const links = {
    purchasePage,
    directCheckout: directCheckout(repositoryUrl, item, { tier: tier.id, email, successUrl, cancelUrl, sig }),
    embedCode: buyButtonCode(purchasePage, item.name),
  };
  return { item, tierId: tier.id, links };
}

/** A package's direct buy link: GET /api/purchase/checkout with its fields, which redirects to its purchase page. */
function packageDirectCheckout(repositoryUrl: string, pkg: SaleItem, fields: DirectCheckoutFields): string {
  const { tier, ...extra } = fields;
  return directCheckoutUrl(repositoryUrl, pkg.id, tier, extra);
}

export type PurchaseLinks = {
  packageId: string;
  packageName: string;
  selectedTier: string | null;
  links: { purchasePage: string; directCheckout: string; embedCode: string };
};

/**
 * POST /api/v1/packages/{id}/purchase-links: the purchase page, a direct checkout link and a buy button for the
 * seller's own site. Checks everything a checkout would (active package, known active tier, currency, a payout
 * account that can take payments when Stripe is on) and changes nothing: a sale starts when a buyer clicks Buy on
 * the purchase page a link opens. With billing off the links work and the page says payments are not set up.
 */
export async function createPurchaseLinks(
  ctx: AppContext,
  sellerId: string,
  packageId: string,
  input: PurchaseLinksRequest,
): Promise<PurchaseLinks> {
  const { item: pkg, tierId, links } = await sellingLinks(ctx, sellerId, { packageId }, input, packageDirectCheckout);
  return { packageId: pkg.id, packageName: pkg.name, selectedTier: tierId, links };
}
