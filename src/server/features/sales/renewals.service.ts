import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { crashPoint } from '../../lib/crash-points.js';
import { setPurchaseGrantTerms } from '../licenses/grants.service.js';
import { applyCheckoutSession } from './sale-fulfilment.service.js';
import { platformFeeCents, subscriptionAccessEnd } from './sale-rules.js';
import { findSale, findSubscriptionPurchase, insertRenewal, type Sale, setPaymentIntent } from './sales.repository.js';
import { connectOf } from './sales.service.js';

// Subscriptions sold on a seller's account (Connect's customer.subscription.* and invoice.paid): the subscription
// as Stripe has it decides until when its purchase's license gives access, and each renewal is a sale of its own.

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
  const sale = saleId && z.uuid().safeParse(saleId).success ? await findSale(ctx.db, saleId) : undefined;
  if (!sale || sale.stripeAccountId !== account || sale.kind !== 'purchase') return undefined;
  return applyCheckoutSession(ctx, sale);
}

/** The subscription as Stripe has it now decides until when its purchase gives access. */
export async function syncSubscription(ctx: AppContext, account: string, subscriptionId: string): Promise<void> {
  const subscription = await connectOf(ctx).retrieveSubscription(account, subscriptionId);
  let purchase = await findSubscriptionPurchase(ctx.db, account, subscriptionId);
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
export async function applyInvoice(ctx: AppContext, account: string, invoiceId: string): Promise<void> {
  const connect = connectOf(ctx);
  const invoice = await connect.retrieveInvoice(account, invoiceId);
  if (invoice.status !== 'paid' || !invoice.subscriptionId) return;
  const subscriptionId = invoice.subscriptionId;
  const purchase =
    (await findSubscriptionPurchase(ctx.db, account, subscriptionId)) ??
    (await applyPendingCheckout(ctx, account, invoice.subscriptionMetadata));
  if (!purchase) return;
  const subscription = await connect.retrieveSubscription(account, subscriptionId);
  const renewed = await ctx.db.transaction(async (tx) => {
    let renewal: Sale | undefined;
    if (invoice.billingReason === 'subscription_create') {
      // The checkout's own invoice: its payment is the purchase's (a refund of it finds the purchase by it).
      if (!purchase.paymentIntentId && invoice.paymentIntentId) {
        await setPaymentIntent(tx, purchase.id, invoice.paymentIntentId);
      }
    } else if (invoice.amountPaid > 0) {
      renewal = await insertRenewal(tx, {
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
      });
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
