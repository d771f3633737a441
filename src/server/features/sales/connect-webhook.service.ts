import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { ConnectEvent } from '../../adapters/payments/payments.js';
import type { AppContext } from '../../context.js';
import { sales } from '../../db/schema/index.js';
import { AppError } from '../../http/errors.js';
import { crashPoint } from '../../lib/crash-points.js';
import { setPurchaseGrantTerms } from '../licenses/grants.service.js';
import { recordInboundEvent } from '../shared/inbound-webhooks/inbound-deliveries.service.js';
import { syncPayoutAccount } from './payout.service.js';
import { platformFeeCents, subscriptionAccessEnd } from './sale-rules.js';
import { applyCheckoutSession, connectOf, endSale, findSale, findSaleBySession, type Sale } from './sales.service.js';

// Stripe Connect's webhooks (events of sellers' accounts, each naming its `account`): verified over the raw body,
// stored before they are answered (the delivery's id and a durable job, in one transaction), then applied by that
// job, which the runner retries with backoff and resumes after a restart, so that an event Stripe was told we have
// is applied even if the process dies half-way. None is trusted for the state it carries: the session,
// subscription, invoice, charge or dispute is read again from Stripe, so that whatever order events arrive in (and
// however often one is applied), sales and grants end as Stripe has them. Each application is idempotent: its
// writes are one transaction guarded by the sale's state (sales.service.ts) or keyed by the invoice.

/** The job that applies one Connect event. */
export const CONNECT_EVENT_JOB = 'stripe-connect-event';
/** About a day and a half of retries (an hour apart at most): Stripe will not send an event we answered 200 again. */
export const CONNECT_EVENT_MAX_ATTEMPTS = 40;
export const CONNECT_EVENT_MAX_DELAY_MS = 60 * 60_000;

type ConnectEventPayload = { eventId: string; type: string; account: string; objectId: string };

export type ConnectWebhookResult = { received: true; type: string; ignored?: boolean; duplicate?: boolean };

const HANDLED = new Set([
  'account.updated',
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.expired',
  'invoice.paid',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'customer.subscription.paused',
  'customer.subscription.resumed',
  'charge.refunded',
  'charge.dispute.closed',
]);

/** Connect events share Stripe's id space with billing's: the prefix keeps them apart. */
export const deliveryKey = (eventId: string) => `connect:${eventId}`;

export async function receiveConnectWebhook(
  ctx: AppContext,
  rawBody: Buffer,
  signature: string | undefined,
): Promise<ConnectWebhookResult> {
  if (ctx.payments.kind !== 'stripe') {
    throw new AppError('NOT_FOUND', 'Stripe is not configured on this server.', {
      suggestion: 'Set the STRIPE_* variables of the selected payment mode and restart.',
    });
  }
  const event = ctx.payments.connect.parseEvent(rawBody, signature);
  if (!HANDLED.has(event.type) || !event.account || !event.objectId) {
    return { received: true, type: event.type, ignored: true };
  }
  const payload: ConnectEventPayload = {
    eventId: event.id,
    type: event.type,
    account: event.account,
    objectId: event.objectId,
  };
  if (!(await recordInboundEvent(ctx, 'stripe', deliveryKey(event.id), { kind: CONNECT_EVENT_JOB, payload }))) {
    return { received: true, type: event.type, duplicate: true };
  }
  crashPoint(ctx, 'event-recorded');
  return { received: true, type: event.type };
}

export async function applyEvent(
  ctx: AppContext,
  event: Pick<ConnectEvent, 'id' | 'type'> & { account: string; objectId: string },
) {
  const { account, objectId } = event;
  if (event.type === 'account.updated') return syncPayoutAccount(ctx, objectId);
  if (event.type.startsWith('checkout.session.')) {
    const sale = await findSaleBySession(ctx, objectId);
    if (sale && sale.stripeAccountId === account) await applyCheckoutSession(ctx, sale);
    return;
  }
  if (event.type.startsWith('customer.subscription.')) return syncSubscription(ctx, account, objectId);
  if (event.type === 'invoice.paid') return applyInvoice(ctx, account, objectId);
  if (event.type === 'charge.refunded') {
    const charge = await connectOf(ctx).retrieveCharge(account, objectId);
    // A partial refund leaves the purchase standing.
    if (!charge.refunded || !charge.paymentIntentId) return;
    return endSalesPaidBy(ctx, account, charge.paymentIntentId, 'refunded');
  }
  if (event.type === 'charge.dispute.closed') {
    const dispute = await connectOf(ctx).retrieveDispute(account, objectId);
    if (dispute.status !== 'lost') return;
    let paymentIntentId = dispute.paymentIntentId;
    if (!paymentIntentId && dispute.chargeId) {
      paymentIntentId = (await connectOf(ctx).retrieveCharge(account, dispute.chargeId)).paymentIntentId;
    }
    if (paymentIntentId) await endSalesPaidBy(ctx, account, paymentIntentId, 'disputed');
  }
}

async function salesPaidBy(ctx: AppContext, account: string, paymentIntentId: string): Promise<Sale[]> {
  return ctx.db
    .select()
    .from(sales)
    .where(and(eq(sales.stripeAccountId, account), eq(sales.paymentIntentId, paymentIntentId)));
}

/**
 * A refund or lost dispute of a payment. When the payment's sale is not known as paid yet (the refund's event
 * overtook the checkout's), the checkout is applied first, then ended: the true end state either way.
 */
async function endSalesPaidBy(
  ctx: AppContext,
  account: string,
  paymentIntentId: string,
  status: 'refunded' | 'disputed',
): Promise<void> {
  let found = await salesPaidBy(ctx, account, paymentIntentId);
  if (found.length === 0) {
    const session = await connectOf(ctx).findCheckoutSessionByPaymentIntent(account, paymentIntentId);
    const sale = session ? await findSaleBySession(ctx, session.id) : undefined;
    if (sale) found = [await applyCheckoutSession(ctx, sale)];
  }
  for (const sale of found) await endSale(ctx, sale, status);
}

async function findSubscriptionPurchase(
  ctx: AppContext,
  account: string,
  subscriptionId: string,
): Promise<Sale | undefined> {
  const [purchase] = await ctx.db
    .select()
    .from(sales)
    .where(
      and(eq(sales.stripeAccountId, account), eq(sales.subscriptionId, subscriptionId), eq(sales.kind, 'purchase')),
    )
    .limit(1);
  return purchase;
}

/**
 * The purchase of a subscription whose checkout's event has not come yet: the sale the checkout named in the
 * subscription's metadata, with its checkout applied now (read from Stripe), so that the event in hand acts on it.
 */
async function applyPendingCheckout(
  ctx: AppContext,
  account: string,
  metadata: Record<string, string>,
): Promise<Sale | undefined> {
  const saleId = metadata.saleId;
  const sale = saleId && z.uuid().safeParse(saleId).success ? await findSale(ctx, saleId) : undefined;
  if (!sale || sale.stripeAccountId !== account || sale.kind !== 'purchase') return undefined;
  return applyCheckoutSession(ctx, sale);
}

/** The subscription as Stripe has it now decides until when its purchase gives access. */
export async function syncSubscription(ctx: AppContext, account: string, subscriptionId: string): Promise<void> {
  const subscription = await connectOf(ctx).retrieveSubscription(account, subscriptionId);
  let purchase = await findSubscriptionPurchase(ctx, account, subscriptionId);
  // Its checkout's event still to come: apply the checkout (which reads the subscription too) first.
  purchase ??= await applyPendingCheckout(ctx, account, subscription.metadata);
  const grantId = purchase?.status === 'paid' ? purchase.grantId : null;
  if (!grantId) return;
  await ctx.db.transaction((tx) =>
    setPurchaseGrantTerms(
      ctx,
      grantId,
      { expiresAt: subscriptionAccessEnd(subscription), endMode: 'access' },
      { db: tx },
    ),
  );
}

/**
 * A paid invoice: a renewal is a payment of its own (a sale with its fee, one per invoice), and any paid invoice
 * moves the access on; both in one transaction, after everything is read from Stripe.
 */
async function applyInvoice(ctx: AppContext, account: string, invoiceId: string): Promise<void> {
  const connect = connectOf(ctx);
  const invoice = await connect.retrieveInvoice(account, invoiceId);
  if (invoice.status !== 'paid' || !invoice.subscriptionId) return;
  const subscriptionId = invoice.subscriptionId;
  const purchase =
    (await findSubscriptionPurchase(ctx, account, subscriptionId)) ??
    (await applyPendingCheckout(ctx, account, invoice.subscriptionMetadata));
  if (!purchase) return;
  const subscription = await connect.retrieveSubscription(account, subscriptionId);
  const renewed = await ctx.db.transaction(async (tx) => {
    let renewal: Sale | undefined;
    if (invoice.billingReason === 'subscription_create') {
      // The checkout's own invoice: its payment is the purchase's (a refund of it finds the purchase by it).
      if (!purchase.paymentIntentId && invoice.paymentIntentId) {
        await tx.update(sales).set({ paymentIntentId: invoice.paymentIntentId }).where(eq(sales.id, purchase.id));
      }
    } else if (invoice.amountPaid > 0) {
      [renewal] = await tx
        .insert(sales)
        .values({
          sellerId: purchase.sellerId,
          packageId: purchase.packageId,
          priceId: purchase.priceId,
          kind: 'renewal',
          status: purchase.status === 'paid' ? 'paid' : 'pending',
          isTest: false,
          pricingType: purchase.pricingType,
          tierName: purchase.tierName,
          customerEmail: purchase.customerEmail,
          customerId: purchase.customerId,
          amountCents: invoice.amountPaid,
          feeCents: platformFeeCents(invoice.amountPaid),
          currency: invoice.currency,
          stripeAccountId: account,
          paymentIntentId: invoice.paymentIntentId,
          subscriptionId,
          invoiceId: invoice.id,
          createdAt: ctx.clock.now(),
          paidAt: invoice.paidAt ?? ctx.clock.now(),
        })
        .onConflictDoNothing()
        .returning();
      if (renewal) crashPoint(ctx, 'renewal-recorded');
    }
    if (purchase.status === 'paid' && purchase.grantId) {
      await setPurchaseGrantTerms(
        ctx,
        purchase.grantId,
        { expiresAt: subscriptionAccessEnd(subscription), endMode: 'access' },
        { db: tx },
      );
    }
    return renewal;
  });
  if (renewed) crashPoint(ctx, 'renewal-applied');
}
