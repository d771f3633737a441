import type { StripeWebhookResponse } from '../../../contract/billing.js';
import type { Payments } from '../../adapters/payments/payments.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { claimInboundDelivery, releaseInboundDelivery } from '../webhooks/inbound-deliveries.service.js';
import { recordPaidInvoice, syncProviderSubscription } from './provider-sync.js';

// Stripe's webhooks (docs.stripe.com/webhooks): signed over the raw body, delivered at least once, in no
// guaranteed order. Each event is applied once (its id is recorded first), and none is trusted for the state it
// carries: the subscription (and a paid invoice) is fetched again, so whatever order events arrive in, the record
// ends as Stripe has it.

/** The events that can change a seller's subscription. */
const SUBSCRIPTION_EVENTS = new Set([
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_succeeded',
  'invoice.payment_failed',
]);

/** The events that report a platform invoice paid: Platform Revenue counts the invoice (once, by its id). */
const INVOICE_PAID_EVENTS = new Set(['invoice.paid', 'invoice.payment_succeeded']);

export async function receiveStripeWebhook(
  ctx: AppContext,
  payments: Payments,
  rawBody: Buffer,
  signature: string | undefined,
): Promise<StripeWebhookResponse> {
  if (payments.kind !== 'stripe') {
    throw new AppError('NOT_FOUND', 'Stripe billing is not configured on this server.', {
      suggestion:
        'Set the STRIPE_* variables of the selected payment mode and restart, or remove this endpoint in Stripe.',
    });
  }
  const event = payments.parseWebhook(rawBody, signature);
  if (!SUBSCRIPTION_EVENTS.has(event.type) || !event.subscriptionId) {
    return { received: true, type: event.type, ignored: true };
  }

  if (!(await claimInboundDelivery(ctx, 'stripe', event.id))) {
    return { received: true, type: event.type, duplicate: true };
  }
  const now = ctx.clock.now();

  try {
    // A delivery retried days later still dates the change to when it happened, never to the future.
    const observedAt = new Date(Math.min(event.created.getTime(), now.getTime()));
    const userId = await syncProviderSubscription(ctx, payments, event.subscriptionId, {
      userId: event.userId,
      observedAt,
    });
    if (INVOICE_PAID_EVENTS.has(event.type) && event.invoiceId) {
      await recordPaidInvoice(ctx, payments, event.invoiceId, userId);
    }
    ctx.log.info({ eventId: event.id, type: event.type, userId }, 'Stripe event applied');
  } catch (error) {
    // Forget the delivery, so that Stripe's retry applies it.
    await releaseInboundDelivery(ctx, 'stripe', event.id);
    throw error;
  }
  return { received: true, type: event.type };
}
