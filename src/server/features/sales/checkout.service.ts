import {
  PLATFORM_FEE_PERCENT,
  PURCHASE_SUCCESS_PATH,
  type PurchaseResult,
  type PurchaseStatus,
  type StartCheckoutInput,
  type StartCheckoutResponse,
  salesMessages,
} from '../../../contract/sales.js';
import { setupCommands, TOKEN_PLACEHOLDER } from '../../../contract/setup-commands.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import type { RequestHost } from '../../http/hosts.js';
import { decryptSecret } from '../../lib/crypto.js';
import { parseHolderEmail } from '../licenses/grants.service.js';
import { getLicenseMailSeller } from '../licenses/license-mail.service.js';
import { findOwnedProduct } from '../products/products.service.js';
import type { PriceTarget } from './pricing.repository.js';
import { assertSignedPurchaseReturn } from './purchase-return.js';
import { applyCheckoutSession } from './sale-fulfilment.service.js';
import { platformFeeCents } from './sale-rules.js';
import { findPackageName, findSaleBySession, insertSale, type Sale, setCheckoutSession } from './sales.repository.js';
import {
  connectOf,
  getHostSeller,
  getSaleOffer,
  isTestMode,
  parseReturnUrl,
  paymentsNotSetUp,
  purchasePageUrl,
  repositoryUrlOf,
  type SaleOffer,
} from './sales.service.js';

// A buyer's checkout on the seller's repository host (DESIGN "Selling"): the pending sale and its Stripe Checkout
// Session on the seller's connected account, and the success page the buyer returns to, which applies the session
// (sale-fulfilment.service.ts) when its webhook has not come yet.

export type CheckoutOptions = { email?: string; successUrl?: string; cancelUrl?: string };

/**
 * Starts a buyer's checkout for an offer: a Stripe Checkout Session on the seller's account (the application fee 5%
 * of the amount) and the pending sale it will pay. Without a payment provider there is no checkout: refused with
 * "Payments are not set up for this seller" (the seller's test purchase is test-purchase.service.ts).
 */
export async function startSaleCheckout(
  ctx: AppContext,
  offer: SaleOffer & { payoutAccountId: string | null },
  options: CheckoutOptions,
): Promise<StartCheckoutResponse> {
  if (isTestMode(ctx) || !offer.payoutAccountId) throw paymentsNotSetUp();
  const { tier, item, seller, repositoryUrl } = offer;
  const email = options.email ? parseHolderEmail(options.email) : undefined;
  const successUrl =
    parseReturnUrl(options.successUrl) ?? `${repositoryUrl}${PURCHASE_SUCCESS_PATH}?session_id={CHECKOUT_SESSION_ID}`;
  const cancelUrl =
    parseReturnUrl(options.cancelUrl) ??
    purchasePageUrl(repositoryUrl, item.target, { tier: tier.id, cancelled: 'true' });
  const feeCents = platformFeeCents(tier.priceCents);
  const connect = connectOf(ctx);
  const sale = await insertSale(ctx.db, {
    sellerId: seller.id,
    ...item.target,
    priceId: tier.id,
    kind: 'purchase' as const,
    isTest: false,
    pricingType: tier.pricingType,
    tierName: tier.name,
    customerEmail: email ?? null,
    amountCents: tier.priceCents,
    feeCents,
    currency: tier.currency,
    createdAt: ctx.clock.now(),
    stripeAccountId: offer.payoutAccountId,
  });
  const isSubscription = tier.pricingType === 'subscription';
  const session = await connect.createCheckoutSession({
    account: offer.payoutAccountId,
    mode: isSubscription ? 'subscription' : 'payment',
    productName: `${item.name} (${tier.name})`,
    amountCents: tier.priceCents,
    currency: tier.currency,
    interval: tier.interval,
    trialDays: tier.trialDays,
    applicationFeeCents: isSubscription ? null : feeCents,
    applicationFeePercent: isSubscription ? PLATFORM_FEE_PERCENT : null,
    customerEmail: email ?? null,
    successUrl,
    cancelUrl,
    metadata: { saleId: sale.id, sellerId: seller.id, ...item.target, tierId: tier.id },
  });
  await setCheckoutSession(ctx.db, sale.id, session.id);
  if (!session.url) throw new AppError('UNAVAILABLE', 'The payment provider did not return a checkout page.');
  return { checkoutUrl: session.url, sessionId: session.id, testMode: false };
}

/** A checkout names exactly one of packageId and productId. */
function checkoutTarget(input: StartCheckoutInput): PriceTarget {
  if (input.productId !== undefined && input.packageId === undefined) return { productId: input.productId };
  if (input.packageId !== undefined && input.productId === undefined) return { packageId: input.packageId };
  throw new AppError('VALIDATION_FAILED', salesMessages.checkoutTargetInvalid);
}

/** POST /api/purchase/checkout on the seller's host. */
export async function startCheckout(
  ctx: AppContext,
  host: RequestHost,
  input: StartCheckoutInput,
): Promise<StartCheckoutResponse> {
  const seller = await getHostSeller(ctx, host);
  const offer = await getSaleOffer(ctx, seller.id, checkoutTarget(input), {
    tierId: input.tierId,
    currency: input.currency,
    isBuyer: true,
  });
  // Billing off: an anonymous buyer never gets a sale, paid or test (issue 28); the seller runs test purchases.
  if (isTestMode(ctx)) throw paymentsNotSetUp();
  const returns = { successUrl: input.successUrl || undefined, cancelUrl: input.cancelUrl || undefined };
  assertSignedPurchaseReturn(ctx.config.secretKey, { packageId: offer.item.id, ...returns }, input.sig);
  return startSaleCheckout(ctx, offer, { email: input.email, ...returns });
}

function presentStatus(sale: Sale): PurchaseStatus {
  switch (sale.status) {
    case 'paid':
      return 'complete';
    case 'refunded':
    case 'disputed':
      return 'refunded';
    default:
      return sale.status;
  }
}

/**
 * What a sale sold, by name: a package's name, or a product's name and its packages' names as they are now (the
 * license covers the product's packages at each request). packageName names the product for a product's sale.
 */
async function soldNames(
  ctx: AppContext,
  sale: Sale,
): Promise<{ packageName: string; productName: string | null; packageNames: string[] }> {
  if (sale.productId) {
    const product = await findOwnedProduct(ctx.db, sale.sellerId, sale.productId);
    const packageNames = product?.packages.map((pkg) => pkg.name) ?? [];
    return { packageName: product?.name ?? '', productName: product?.name ?? null, packageNames };
  }
  const name = sale.packageId ? await findPackageName(ctx.db, sale.packageId) : undefined;
  return { packageName: name ?? '', productName: null, packageNames: name !== undefined ? [name] : [] };
}

/** GET /api/purchase/sessions/{sessionId} on the seller's host: what the success page shows. */
export async function getPurchaseResult(
  ctx: AppContext,
  host: RequestHost,
  sessionId: string,
): Promise<PurchaseResult> {
  const seller = await getHostSeller(ctx, host);
  let sale = await findSaleBySession(ctx.db, sessionId);
  if (!sale || sale.sellerId !== seller.id || sale.kind !== 'purchase') {
    throw new AppError('NOT_FOUND', salesMessages.saleNotFound);
  }
  if (sale.status === 'pending') sale = await applyCheckoutSession(ctx, sale);
  const sender = await getLicenseMailSeller(ctx, seller.id);
  const repositoryUrl = repositoryUrlOf(ctx, sender);
  const { packageName, productName, packageNames } = await soldNames(ctx, sale);
  const now = ctx.clock.now();
  const token =
    sale.status === 'paid' && sale.sealedToken && sale.tokenVisibleUntil && sale.tokenVisibleUntil > now
      ? decryptSecret(ctx.config.secretKey, sale.sealedToken)
      : null;
  return {
    status: presentStatus(sale),
    packageName,
    productName,
    packageNames,
    tierName: sale.tierName,
    repositoryUrl,
    token,
    hasExistingToken: sale.hadToken,
    setupCommands:
      sale.status === 'paid'
        ? setupCommands({
            repositoryUrl,
            sellerSlug: sender.slug,
            packageName: packageNames.join(' '),
            token: token ?? TOKEN_PLACEHOLDER,
          })
        : [],
    customerEmail: sale.customerEmail,
    testMode: sale.isTest,
  };
}
