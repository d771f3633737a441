import { z } from 'zod';
import { defineStripeEventJob } from '../shared/inbound-webhooks/stripe-event-jobs.service.js';
import { recordPaidInvoice, syncProviderSubscription } from './provider-sync.js';
import {
  BILLING_EVENT_JOB,
  BILLING_EVENT_MAX_ATTEMPTS,
  BILLING_EVENT_MAX_DELAY_MS,
  INVOICE_PAID_EVENTS,
} from './stripe-webhook.service.js';

// The `stripe-billing-event` job (stripe-webhook.service.ts records it with the delivery): applies one platform
// billing event, reading the subscription again from Stripe.

const billingEventPayload = z.object({
  eventId: z.string().min(1),
  type: z.string().min(1),
  subscriptionId: z.string().min(1),
  userId: z.string().nullable(),
  invoiceId: z.string().nullable(),
  /** When Stripe says the event happened (ISO). */
  created: z.iso.datetime(),
});

declare module '../../jobs/job-definition.js' {
  interface JobPayloads {
    [BILLING_EVENT_JOB]: z.infer<typeof billingEventPayload>;
  }
}

export const billingEventJob = defineStripeEventJob({
  kind: BILLING_EVENT_JOB,
  payload: billingEventPayload,
  maxAttempts: BILLING_EVENT_MAX_ATTEMPTS,
  maxDelayMs: BILLING_EVENT_MAX_DELAY_MS,
  deliveryKey: (eventId) => eventId,
  async apply(ctx, payload) {
    const payments = ctx.payments;
    // The payment mode changes only with a restart: an event stored under another mode waits for it.
    if (payments.kind !== 'stripe') throw new Error('Stripe billing is not configured on this server');
    // A delivery retried days later still dates the change to when it happened, never to the future.
    const observedAt = new Date(Math.min(new Date(payload.created).getTime(), ctx.clock.now().getTime()));
    const userId = await syncProviderSubscription(ctx, payments, payload.subscriptionId, {
      userId: payload.userId,
      observedAt,
    });
    if (INVOICE_PAID_EVENTS.has(payload.type) && payload.invoiceId) {
      await recordPaidInvoice(ctx, payments, payload.invoiceId, userId);
    }
    return { userId };
  },
  messages: { applied: 'Stripe event applied', givenUp: 'a Stripe billing event could not be applied' },
});
