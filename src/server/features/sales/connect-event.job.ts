import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { defineJob } from '../../jobs/job-definition.js';
import { releaseInboundDelivery } from '../shared/inbound-webhooks/inbound-deliveries.service.js';
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

export const connectEventJob = defineJob<AppContext, typeof CONNECT_EVENT_JOB>({
  kind: CONNECT_EVENT_JOB,
  payload: connectEventPayload,
  maxAttempts: CONNECT_EVENT_MAX_ATTEMPTS,
  retryDelayMs: (failedAttempt) => Math.min(CONNECT_EVENT_MAX_DELAY_MS, 5_000 * 2 ** (failedAttempt - 1)),
  async handler(ctx, payload) {
    await applyEvent(ctx, {
      id: payload.eventId,
      type: payload.type,
      account: payload.account,
      objectId: payload.objectId,
    });
    ctx.log.info(
      { eventId: payload.eventId, type: payload.type, account: payload.account },
      'Stripe Connect event applied',
    );
    return {};
  },
  async onGiveUp(ctx, payload, error) {
    ctx.log.error(
      { eventId: payload.eventId, type: payload.type, error },
      'a Stripe Connect event could not be applied',
    );
    // Forgotten, so that resending it from Stripe's dashboard applies it.
    await releaseInboundDelivery(ctx, 'stripe', deliveryKey(payload.eventId));
  },
});
