import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { defineJob } from '../../jobs/job-definition.js';
import { releaseInboundDelivery } from '../shared/inbound-webhooks/inbound-deliveries.service.js';
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

export const billingEventJob = defineJob<AppContext, typeof BILLING_EVENT_JOB>({
  kind: BILLING_EVENT_JOB,
  payload: billingEventPayload,
  maxAttempts: BILLING_EVENT_MAX_ATTEMPTS,
  retryDelayMs: (failedAttempt) => Math.min(BILLING_EVENT_MAX_DELAY_MS, 5_000 * 2 ** (failedAttempt - 1)),
  async handler(ctx, payload) {
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
    ctx.log.info({ eventId: payload.eventId, type: payload.type, userId }, 'Stripe event applied');
    return {};
  },
  async onGiveUp(ctx, payload, error) {
    ctx.log.error(
      { eventId: payload.eventId, type: payload.type, error },
      'a Stripe billing event could not be applied',
    );
    // Forgotten, so that resending it from Stripe's dashboard applies it.
    await releaseInboundDelivery(ctx, 'stripe', payload.eventId);
  },
});
