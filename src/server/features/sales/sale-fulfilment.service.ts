import type { AppContext } from '../../context.js';
import type { Principal } from '../../http/principal.js';
import { grantMailReference, sendQueuedMail } from '../../jobs/mail-delivery.js';
import { addMonths } from '../../lib/calendar.js';
import { DAY_MS } from '../../lib/clock.js';
import { crashPoint } from '../../lib/crash-points.js';
import { encryptSecret } from '../../lib/crypto.js';
import { createGrantIn, loadGrantParties, sendGrantEmail } from '../licenses/grant-issuing.service.js';
import { recordAuditEvent } from '../shared/audit/audit.service.js';
import { emitWebhookEvent } from '../webhooks/webhook-events.service.js';
import { platformFeeCents, subscriptionAccessEnd } from './sale-rules.js';
import {
  claimPendingSale,
  expirePendingSale,
  findPrice,
  findSale,
  recordSaleLicense,
  type Sale,
} from './sales.repository.js';
import { connectOf } from './sales.service.js';

// The fulfilment of a paid sale: whatever tells us a sale is paid (the success page asking, the checkout's webhook,
// a test purchase) claims it here with one conditional update, so that it is fulfilled exactly once.

/** How long the success page may show the buyer's new token (the e-mail has it too). */
export const TOKEN_VISIBLE_MS = DAY_MS;

export type PaymentFacts = {
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
  const tier = sale.priceId ? await findPrice(ctx.db, sale.priceId) : undefined;
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
  options: { actor?: Principal } = {},
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
    const claimed = await claimPendingSale(tx, sale.id, {
      paidAt: facts.paidAt,
      customerEmail: facts.email,
      amountCents: facts.amountCents,
      feeCents: platformFeeCents(facts.amountCents),
      paymentIntentId: facts.paymentIntentId ?? sale.paymentIntentId,
      subscriptionId: facts.subscriptionId ?? sale.subscriptionId,
    });
    if (!claimed) return undefined;
    crashPoint(ctx, 'sale-paid');
    const result = await createGrantIn(ctx, tx, parties, grantInput);
    crashPoint(ctx, 'grant-created');
    // Queued, not sent: a mail sent from a transaction that then dies would be a second one on the next attempt.
    await sendGrantEmail(ctx, tx, parties.seller, result, grantInput, { queueOnly: true });
    crashPoint(ctx, 'mail-queued');
    const done = await recordSaleLicense(tx, claimed.id, {
      customerId: result.customer.id,
      grantId: result.grant.id,
      hadToken: !result.isNewCustomer,
      sealedToken: result.composerToken ? encryptSecret(ctx.config.secretKey, result.composerToken) : null,
      tokenVisibleUntil: result.composerToken ? new Date(ctx.clock.now().getTime() + TOKEN_VISIBLE_MS) : null,
    });
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
  if (!fulfilled) return (await findSale(ctx.db, sale.id)) ?? sale;
  ctx.log.info({ saleId: fulfilled.id, test: fulfilled.isTest }, 'sale fulfilled');
  crashPoint(ctx, 'sale-fulfilled');
  // The e-mail's first attempt, now that its license exists; the runner retries it (or makes it, if we die here).
  if (fulfilled.grantId) await sendQueuedMail(ctx.db, ctx.jobs, grantMailReference(fulfilled.grantId));
  crashPoint(ctx, 'mail-sent');
  ctx.jobs.wake();
  return fulfilled;
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
    return (await expirePendingSale(ctx.db, sale.id, ctx.clock.now())) ?? sale;
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
