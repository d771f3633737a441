import type { AppContext } from '../../context.js';
import { buyButtonCode, checkPurchaseLinksRequest, type PurchaseLinksRequest } from './purchase-links.service.js';
import { signPurchaseReturn } from './purchase-return.js';
import { purchasePageUrl } from './sales.service.js';

// API v1's purchase links for a product (issue 31), the shapes of a package's (purchase-links.service.ts): the
// purchase page (?product=), a direct buy link and a buy button, on the seller's repository host.

export type ProductPurchaseLinks = {
  productId: string;
  productName: string;
  selectedTier: string | null;
  links: { purchasePage: string; directCheckout: string; embedCode: string };
};

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
  const checked = await checkPurchaseLinksRequest(ctx, sellerId, { productId }, input);
  const { email, successUrl, cancelUrl, item: product, tier, repositoryUrl } = checked;
  const target = { productId: product.id };
  const purchasePage = purchasePageUrl(repositoryUrl, target, { tier: tier.id, ...(email ? { email } : {}) });
  // Checkout checks the return addresses against the sale item's id, a product's here (purchase-return.ts).
  const sig = signPurchaseReturn(ctx.config.secretKey, { packageId: product.id, successUrl, cancelUrl });
  const carried = Object.fromEntries(
    Object.entries({ tier: tier.id, email, successUrl, cancelUrl, sig }).filter((entry): entry is [string, string] =>
      Boolean(entry[1]),
    ),
  );
  const directCheckout = purchasePageUrl(repositoryUrl, target, carried);
  const embedCode = buyButtonCode(purchasePage, product.name);
  return {
    productId: product.id,
    productName: product.name,
    selectedTier: tier.id,
    links: { purchasePage, directCheckout, embedCode },
  };
}
