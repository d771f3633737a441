import type { ConnectEvent } from '../../adapters/payments/payments.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { recordStripeEvent } from '../shared/inbound-webhooks/stripe-event-jobs.service.js';
import { syncPayoutAccount } from './payout.service.js';
import { endSalesPaidBy } from './refunds.service.js';
import { applyInvoice, syncSubscription } from './renewals.service.js';
import { applyCheckoutSession } from './sale-fulfilment.service.js';
import { findSaleBySession } from './sales.repository.js';
import { connectOf } from './sales.service.js';

// Stripe Connect's webhooks (events of sellers' accounts, each naming its `account`): verified over the raw body,
// stored before they are answered (the delivery's id and a durable job, in one transaction), then applied by that
// job, which the runner retries with backoff and resumes after a restart, so that an event Stripe was told we have
// is applied even if the process dies half-way. None is trusted for the state it carries: the session,
// subscription, invoice, charge or dispute is read again from Stripe, so that whatever order events arrive in (and
// however often one is applied), sales and grants end as Stripe has them. Each application is idempotent: its
// writes are one transaction guarded by the sale's state (sale-fulfilment.service.ts, refunds.service.ts) or keyed
// by the invoice (renewals.service.ts).

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
  return recordStripeEvent(ctx, event.type, deliveryKey(event.id), { kind: CONNECT_EVENT_JOB, payload });
}

export async function applyEvent(
  ctx: AppContext,
  event: Pick<ConnectEvent, 'id' | 'type'> & { account: string; objectId: string },
) {
  const { account, objectId } = event;
  if (event.type === 'account.updated') return syncPayoutAccount(ctx, objectId);
  if (event.type.startsWith('checkout.session.')) {
    const sale = await findSaleBySession(ctx.db, objectId);
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
