import type { AppContext } from '../../context.js';
import { type DirectCheckoutFields, type PurchaseLinksRequest, sellingLinks } from './purchase-links.service.js';
import { purchasePageUrl, type SaleItem } from './sales.service.js';

// API v1's purchase links for a product (issue 31), the shapes of a package's (purchase-links.service.ts): the
// purchase page (?product=), a direct buy link and a buy button, on the seller's repository host.

export type ProductPurchaseLinks = {
  productId: string;
  productName: string;
  selectedTier: string | null;
  links: { purchasePage: string; directCheckout: string; embedCode: string };
};

/** A product's direct buy link: its purchase page with every field filled in, whose Buy button starts the checkout. */
function directCheckout(repositoryUrl: string, product: SaleItem, fields: DirectCheckoutFields): string {
  const carried = Object.fromEntries(
    Object.entries(fields).filter((entry): entry is [string, string] => Boolean(entry[1])),
  );
  return purchasePageUrl(repositoryUrl, product.target, carried);
}

/**
 * POST /api/v1/products/{productId}/purchase-links: checks what a checkout would (an active product with packages, a
 * known active tier, the currency, a payout account when Stripe is on) and changes nothing. The direct buy link is
 * the purchase page with every field filled in (tier, e-mail, signed return addresses), whose Buy button starts the
 * checkout: a GET never starts a sale, as a package's direct link (which redirects to its page) never does.
 */
export async function createProductPurchaseLinks(
  ctx: AppContext,
  sellerId: string,
  productId: string,
  input: PurchaseLinksRequest,
): Promise<ProductPurchaseLinks> {
  const { item: product, tierId, links } = await sellingLinks(ctx, sellerId, { productId }, input, directCheckout);
  return { productId: product.id, productName: product.name, selectedTier: tierId, links };
}
