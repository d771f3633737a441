import { z } from 'zod';
import { defineStripeEventJob } from '../shared/inbound-webhooks/stripe-event-jobs.service.js';
import {
  applyEvent,
  CONNECT_EVENT_JOB,
  CONNECT_EVENT_MAX_ATTEMPTS,
  CONNECT_EVENT_MAX_DELAY_MS,
  deliveryKey,
} from './connect-webhook.service.js';

// The `stripe-connect-event` job (connect-webhook.service.ts records it with the delivery): applies one Connect
// event, reading its object again from Stripe.

const connectEventPayload = z.object({
  eventId: z.string().min(1),
  type: z.string().min(1),
  account: z.string().min(1),
  objectId: z.string().min(1),
});

declare module '../../jobs/job-definition.js' {
  interface JobPayloads {
    [CONNECT_EVENT_JOB]: z.infer<typeof connectEventPayload>;
  }
}

export const connectEventJob = defineStripeEventJob({
  kind: CONNECT_EVENT_JOB,
  payload: connectEventPayload,
  maxAttempts: CONNECT_EVENT_MAX_ATTEMPTS,
  maxDelayMs: CONNECT_EVENT_MAX_DELAY_MS,
  deliveryKey,
  async apply(ctx, payload) {
    await applyEvent(ctx, {
      id: payload.eventId,
      type: payload.type,
      account: payload.account,
      objectId: payload.objectId,
    });
    return { account: payload.account };
  },
  messages: { applied: 'Stripe Connect event applied', givenUp: 'a Stripe Connect event could not be applied' },
});
