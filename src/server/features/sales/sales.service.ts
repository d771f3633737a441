import { and, eq } from 'drizzle-orm';
import { isEntityId } from '../../../contract/ids.js';
import {
  PLATFORM_FEE_PERCENT,
  PURCHASE_PAGE_PATH,
  PURCHASE_SUCCESS_PATH,
  type PurchasePage,
  type PurchaseResult,
  type PurchaseStatus,
  type StartCheckoutInput,
  type StartCheckoutResponse,
  salesMessages,
} from '../../../contract/sales.js';
import { setupCommands, TOKEN_PLACEHOLDER } from '../../../contract/setup-commands.js';
import type { ConnectGateway } from '../../adapters/payments/payments.js';
import type { AppContext } from '../../context.js';
import { packagePrices, packages, sales } from '../../db/schema/index.js';
import { AppError } from '../../http/errors.js';
import type { RequestHost } from '../../http/hosts.js';
import { grantMailReference, sendQueuedMail } from '../../jobs/mail-delivery.js';
import { addMonths } from '../../lib/calendar.js';
import { DAY_MS } from '../../lib/clock.js';
import { crashPoint } from '../../lib/crash-points.js';
import { decryptSecret, encryptSecret } from '../../lib/crypto.js';
import { repositoryUrlFor } from '../branding/branding.service.js';
import { createGrantIn, loadGrantParties, sendGrantEmail } from '../licenses/grant-issuing.service.js';
import { parseHolderEmail, setPurchaseGrantTerms } from '../licenses/grants.service.js';
import { getLicenseSender, type LicenseSender } from '../licenses/license-mail.service.js';
import { findOwnedProduct } from '../products/products.service.js';
import { type Actor, recordAuditEvent } from '../shared/audit/audit.service.js';
import { findHostSeller, findUserById, type SellerIdentity } from '../users/users.service.js';
import { emitWebhookEvent } from '../webhooks/webhook-events.service.js';
import { SELLER_CLOSED_MESSAGE } from './account-closing.service.js';
import { findEnabledPayoutAccount } from './payout.service.js';
import { findTargetPrices, type PackagePriceRow, type PriceTarget } from './pricing.service.js';
import { assertSignedPurchaseReturn } from './purchase-return.js';
import { platformFeeCents, subscriptionAccessEnd } from './sale-rules.js';

// Sales (issue 11; DESIGN "Selling"): a buyer pays on the seller's repository host, in Stripe Checkout on the
// seller's connected account with the platform's 5% fee, or at once in test-sales mode (billing off). A paid sale
// becomes a grant of kind `purchase` through the licenses domain, which e-mails the holder in the seller's brand.
// Whatever tells us a sale is paid (the success page asking, or a webhook) re-reads Stripe and claims the sale
// with one conditional update, so that it is fulfilled exactly once.

export type Sale = typeof sales.$inferSelect;

/** How long the success page may show the buyer's new token (the e-mail has it too). */
export const TOKEN_VISIBLE_MS = DAY_MS;

export function isTestMode(ctx: AppContext): boolean {
  return ctx.payments.kind === 'off';
}

/** The Connect side of the payment provider; only called where test mode was ruled out. */
export function connectOf(ctx: AppContext): ConnectGateway {
  if (ctx.payments.kind !== 'stripe') throw new AppError('UNAVAILABLE', salesMessages.salesUnavailable);
  return ctx.payments.connect;
}

/** The seller whose repository host this is; 404 on the app's own host or the bare Composer host. */
export async function getHostSeller(ctx: AppContext, host: RequestHost): Promise<SellerIdentity> {
  const seller = await findHostSeller(ctx, host);
  if (!seller) throw new AppError('NOT_FOUND', salesMessages.packageNotForSale);
  return seller;
}

async function findSellerPackage(ctx: AppContext, sellerId: string, packageId: string) {
  const [pkg] = isEntityId(packageId)
    ? await ctx.db
        .select()
        .from(packages)
        .where(and(eq(packages.id, packageId), eq(packages.ownerId, sellerId)))
        .limit(1)
    : [];
  return pkg;
}

async function activePrices(ctx: AppContext, target: PriceTarget): Promise<PackagePriceRow[]> {
  const prices = await findTargetPrices(ctx, target);
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
  const pkg = await findSellerPackage(ctx, sellerId, target.packageId);
  if (!pkg) return undefined;
  const { id, name, description, isActive } = pkg;
  return { id, name, description, isActive, target: { packageId: id }, packages: [] };
}

export function repositoryUrlOf(ctx: AppContext, seller: LicenseSender): string {
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
  const sender = await getLicenseSender(ctx, seller.id);
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

export type SaleOffer = { seller: LicenseSender; item: SaleItem; tier: PackagePriceRow; repositoryUrl: string };

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
  const seller = await getLicenseSender(ctx, sellerId);
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
  const [sale] = await ctx.db
    .insert(sales)
    .values({
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
    })
    .returning();
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
    metadata: { saleId: sale!.id, sellerId: seller.id, ...item.target, tierId: tier.id },
  });
  await ctx.db.update(sales).set({ checkoutSessionId: session.id }).where(eq(sales.id, sale!.id));
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

type PaymentFacts = {
  email: string;
  paidAt: Date;
  amountCents: number;
  paymentIntentId?: string | null;
  subscriptionId?: string | null;
  /** The access a subscription gives now (from Stripe); computed from the tier when absent. */
  accessEnd?: Date | null;
};

/** Until when a purchase of `sale` paid at `paidAt` gives access, and what ends then. */
async function purchaseTerms(
  ctx: AppContext,
  sale: Sale,
  facts: PaymentFacts,
): Promise<{ expiresAt: Date | null; endMode: 'access' | 'updates'; versionConstraint?: string | null }> {
  const [tier] = sale.priceId
    ? await ctx.db.select().from(packagePrices).where(eq(packagePrices.id, sale.priceId)).limit(1)
    : [];
  // A price for a version range ("Version 2 licence", issue 31) gives a license of that range; otherwise the
  // license's own range stays as it is (a renewal does not widen what a seller narrowed by hand).
  const range = tier?.versionConstraint ? { versionConstraint: tier.versionConstraint } : {};
  if (sale.pricingType === 'one_time') {
    // Lifetime access to the versions released during the update window, then frozen.
    return {
      expiresAt: tier?.updateMonths ? addMonths(facts.paidAt, tier.updateMonths) : null,
      endMode: 'updates',
      ...range,
    };
  }
  if (facts.accessEnd !== undefined) return { expiresAt: facts.accessEnd, endMode: 'access', ...range };
  // Test sales have no provider to renew them: one period (after the trial, if any).
  const trialEnd = new Date(facts.paidAt.getTime() + (tier?.trialDays ?? 0) * DAY_MS);
  return { expiresAt: addMonths(trialEnd, tier?.interval === 'year' ? 12 : 1), endMode: 'access', ...range };
}

/**
 * Marks a pending sale paid and gives the buyer the package (a grant of kind purchase, e-mailed in the seller's
 * brand), all in one transaction: the sale's claim (status, paid amount and fee), the grant, the license e-mail's
 * job and the outgoing `purchase.completed` event exist together or not at all, so that a process dying anywhere
 * leaves the sale pending for the next attempt (the provider event's job, the success page) and no attempt can
 * give a second license, e-mail or fee. The conditional claim lets exactly one caller through. Answers the sale as
 * it is afterwards.
 */
export async function fulfilSale(
  ctx: AppContext,
  sale: Sale,
  facts: PaymentFacts,
  /** The seller running a test purchase: the audit trail records `sale.test_purchase` by them, with the sale. */
  options: { actor?: Actor } = {},
): Promise<Sale> {
  if (sale.status !== 'pending') return sale;
  // Read before the transaction: on PGlite a query outside an open transaction waits for it.
  const terms = await purchaseTerms(ctx, sale, facts);
  // A product's sale (issue 31) licenses the product: every package in it, as it is at each request.
  const parties = await loadGrantParties(
    ctx,
    sale.sellerId,
    sale.productId ? { productId: sale.productId } : sale.packageId!,
  );
  const grantInput = {
    email: facts.email,
    ...(sale.productId ? {} : { packageId: sale.packageId! }),
    kind: 'purchase' as const,
    expiresAt: terms.expiresAt,
    endMode: terms.endMode,
    versionConstraint: terms.versionConstraint,
    note: `${sale.isTest ? 'Test purchase' : 'Purchase'}: ${sale.tierName}`,
    isTestPurchase: sale.isTest,
  };
  const fulfilled = await ctx.db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(sales)
      .set({
        status: 'paid',
        paidAt: facts.paidAt,
        customerEmail: facts.email,
        amountCents: facts.amountCents,
        feeCents: platformFeeCents(facts.amountCents),
        paymentIntentId: facts.paymentIntentId ?? sale.paymentIntentId,
        subscriptionId: facts.subscriptionId ?? sale.subscriptionId,
      })
      .where(and(eq(sales.id, sale.id), eq(sales.status, 'pending')))
      .returning();
    if (!claimed) return undefined;
    crashPoint(ctx, 'sale-paid');
    const result = await createGrantIn(ctx, tx, parties, grantInput);
    crashPoint(ctx, 'grant-created');
    // Queued, not sent: a mail sent from a transaction that then dies would be a second one on the next attempt.
    await sendGrantEmail(ctx, tx, parties.seller, result, grantInput, { queueOnly: true });
    crashPoint(ctx, 'mail-queued');
    const [done] = await tx
      .update(sales)
      .set({
        customerId: result.customer.id,
        grantId: result.grant.id,
        hadToken: !result.isNewCustomer,
        sealedToken: result.composerToken ? encryptSecret(ctx.config.secretKey, result.composerToken) : null,
        tokenVisibleUntil: result.composerToken ? new Date(ctx.clock.now().getTime() + TOKEN_VISIBLE_MS) : null,
      })
      .where(eq(sales.id, claimed.id))
      .returning();
    await emitWebhookEvent(
      ctx,
      claimed.sellerId,
      'purchase.completed',
      {
        saleId: claimed.id,
        packageId: claimed.packageId,
        tierName: claimed.tierName,
        amountCents: claimed.amountCents,
        currency: claimed.currency,
        email: facts.email,
        isTest: claimed.isTest,
        licenseId: result.grant.id,
        paidAt: facts.paidAt.toISOString(),
      },
      { db: tx },
    );
    crashPoint(ctx, 'webhook-queued');
    if (options.actor) {
      await recordAuditEvent(tx, ctx, options.actor, {
        action: 'sale.test_purchase',
        targetType: 'sale',
        targetId: claimed.id,
        details: {
          packageId: claimed.packageId,
          tierName: claimed.tierName,
          email: facts.email,
          isTest: claimed.isTest,
          licenseId: result.grant.id,
        },
      });
    }
    return done ?? claimed;
  });
  if (!fulfilled) return (await findSale(ctx, sale.id)) ?? sale;
  ctx.log.info({ saleId: fulfilled.id, test: fulfilled.isTest }, 'sale fulfilled');
  crashPoint(ctx, 'sale-fulfilled');
  // The e-mail's first attempt, now that its license exists; the runner retries it (or makes it, if we die here).
  if (fulfilled.grantId) await sendQueuedMail(ctx.db, ctx.jobs, grantMailReference(fulfilled.grantId));
  crashPoint(ctx, 'mail-sent');
  ctx.jobs.wake();
  return fulfilled;
}

export async function findSale(ctx: AppContext, saleId: string): Promise<Sale | undefined> {
  const [sale] = await ctx.db.select().from(sales).where(eq(sales.id, saleId)).limit(1);
  return sale;
}

export async function findSaleBySession(ctx: AppContext, sessionId: string): Promise<Sale | undefined> {
  const [sale] = await ctx.db.select().from(sales).where(eq(sales.checkoutSessionId, sessionId)).limit(1);
  return sale;
}

/**
 * Reads a checkout session again from Stripe and applies it: paid → fulfilled (once), expired → expired. Used by
 * the webhook and by the success page, so that neither depends on the other arriving first.
 */
export async function applyCheckoutSession(ctx: AppContext, sale: Sale): Promise<Sale> {
  if (sale.status !== 'pending' || sale.isTest || !sale.stripeAccountId || !sale.checkoutSessionId) return sale;
  const connect = connectOf(ctx);
  const session = await connect.retrieveCheckoutSession(sale.stripeAccountId, sale.checkoutSessionId);
  if (!session) return sale;
  if (session.status === 'expired') {
    const [expired] = await ctx.db
      .update(sales)
      .set({ status: 'expired', endedAt: ctx.clock.now() })
      .where(and(eq(sales.id, sale.id), eq(sales.status, 'pending')))
      .returning();
    return expired ?? sale;
  }
  if (session.status !== 'complete' || !session.isPaid) return sale;
  const email = session.customerEmail ?? sale.customerEmail;
  if (!email) return sale;
  let accessEnd: Date | null | undefined;
  let paymentIntentId = session.paymentIntentId;
  if (session.subscriptionId) {
    const subscription = await connect.retrieveSubscription(sale.stripeAccountId, session.subscriptionId);
    accessEnd = subscriptionAccessEnd(subscription);
    // A subscription's first payment is its first invoice's: a refund or dispute of it names that payment.
    if (!paymentIntentId && session.invoiceId) {
      paymentIntentId = (await connect.retrieveInvoice(sale.stripeAccountId, session.invoiceId)).paymentIntentId;
    }
  }
  return fulfilSale(ctx, sale, {
    email,
    paidAt: ctx.clock.now(),
    amountCents: session.amountTotal ?? sale.amountCents,
    paymentIntentId,
    subscriptionId: session.subscriptionId,
    accessEnd,
  });
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
  const [pkg] = sale.packageId
    ? await ctx.db.select({ name: packages.name }).from(packages).where(eq(packages.id, sale.packageId))
    : [];
  return { packageName: pkg?.name ?? '', productName: null, packageNames: pkg ? [pkg.name] : [] };
}

/** GET /api/purchase/sessions/{sessionId} on the seller's host: what the success page shows. */
export async function getPurchaseResult(
  ctx: AppContext,
  host: RequestHost,
  sessionId: string,
): Promise<PurchaseResult> {
  const seller = await getHostSeller(ctx, host);
  let sale = await findSaleBySession(ctx, sessionId);
  if (!sale || sale.sellerId !== seller.id || sale.kind !== 'purchase') {
    throw new AppError('NOT_FOUND', salesMessages.saleNotFound);
  }
  if (sale.status === 'pending') sale = await applyCheckoutSession(ctx, sale);
  const sender = await getLicenseSender(ctx, seller.id);
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

/**
 * Ends the access a sale gave (refund, lost dispute): the sale takes `status` and its grant is revoked, in one
 * transaction; a sale already ended is left as it is (an event applied again changes nothing).
 */
export async function endSale(ctx: AppContext, sale: Sale, status: 'refunded' | 'disputed'): Promise<void> {
  const ended = await ctx.db.transaction(async (tx) => {
    const [ended] = await tx
      .update(sales)
      .set({ status, endedAt: ctx.clock.now() })
      .where(and(eq(sales.id, sale.id), eq(sales.status, 'paid')))
      .returning();
    if (!ended) return undefined;
    crashPoint(ctx, 'sale-ended');
    // A renewal's refund ends the subscription's purchase, whose grant it is.
    let grantId = ended.grantId;
    if (!grantId && ended.subscriptionId) {
      const [purchase] = await tx
        .select({ grantId: sales.grantId })
        .from(sales)
        .where(and(eq(sales.subscriptionId, ended.subscriptionId), eq(sales.kind, 'purchase')))
        .limit(1);
      grantId = purchase?.grantId ?? null;
    }
    if (grantId) await setPurchaseGrantTerms(ctx, grantId, { status: 'revoked' }, { db: tx });
    return ended;
  });
  if (!ended) return;
  ctx.log.info({ saleId: ended.id, status }, 'sale ended');
  crashPoint(ctx, 'refund-applied');
}
