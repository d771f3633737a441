import type { StripeWebhookResponse } from '../../../contract/billing.js';
import type { Payments } from '../../adapters/payments/payments.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { recordStripeEvent } from '../shared/inbound-webhooks/stripe-event-jobs.service.js';

// Stripe's webhooks (docs.stripe.com/webhooks): signed over the raw body, delivered at least once, in no
// guaranteed order. Each event is stored once (its id recorded with the job that applies it) and applied by that
// job, and none is trusted for the state it carries: the subscription (and a paid invoice) is fetched again, so whatever order events arrive in, the record
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
export const INVOICE_PAID_EVENTS = new Set(['invoice.paid', 'invoice.payment_succeeded']);

/** The job that applies one platform billing event. */
export const BILLING_EVENT_JOB = 'stripe-billing-event';
/** About a day and a half of retries (an hour apart at most): Stripe will not send an event we answered 200 again. */
export const BILLING_EVENT_MAX_ATTEMPTS = 40;
export const BILLING_EVENT_MAX_DELAY_MS = 60 * 60_000;

type BillingEventPayload = {
  eventId: string;
  type: string;
  subscriptionId: string;
  userId: string | null;
  invoiceId: string | null;
  /** When Stripe says the event happened (ISO). */
  created: string;
};

/**
 * Verifies the event and stores it (its delivery and the job that applies it, in one transaction) before answering:
 * an event answered 200 is applied by that job, retried and resumed after a restart, never lost with a process.
 */
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
  const payload: BillingEventPayload = {
    eventId: event.id,
    type: event.type,
    subscriptionId: event.subscriptionId,
    userId: event.userId,
    invoiceId: event.invoiceId,
    created: event.created.toISOString(),
  };
  return recordStripeEvent(ctx, event.type, event.id, { kind: BILLING_EVENT_JOB, payload });
}
