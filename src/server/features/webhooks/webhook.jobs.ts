import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { defineJob } from '../../jobs/job-definition.js';
import {
  announceExpiredLicenses,
  attemptDelivery,
  giveUp,
  scheduleExpiryScan,
  senderFor,
  WEBHOOK_DELIVERY_JOB,
  WEBHOOK_EXPIRY_SCAN_JOB,
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_RETRY_DELAYS_MS,
  WEBHOOK_SINGLE_ATTEMPT_JOB,
} from './webhook-delivery.js';

// The webhook jobs (webhook-delivery.ts queues them): a message's delivery on the three-day schedule, a single
// attempt (redelivery, test event), and the license-expiry scan that keeps itself queued.

const deliveryPayload = z.object({ messageId: z.string().min(1), trigger: z.enum(['scheduled', 'redelivery']) });
const expiryScanPayload = z.object({ since: z.iso.datetime() });

declare module '../../jobs/job-definition.js' {
  interface JobPayloads {
    [WEBHOOK_DELIVERY_JOB]: z.infer<typeof deliveryPayload>;
    [WEBHOOK_SINGLE_ATTEMPT_JOB]: z.infer<typeof deliveryPayload>;
    [WEBHOOK_EXPIRY_SCAN_JOB]: z.infer<typeof expiryScanPayload>;
  }
}

export const webhookDeliveryJob = defineJob<AppContext, typeof WEBHOOK_DELIVERY_JOB>({
  kind: WEBHOOK_DELIVERY_JOB,
  payload: deliveryPayload,
  maxAttempts: WEBHOOK_MAX_ATTEMPTS,
  retryDelayMs: (failedAttempt) =>
    WEBHOOK_RETRY_DELAYS_MS[Math.min(failedAttempt, WEBHOOK_RETRY_DELAYS_MS.length) - 1]!,
  handler: (ctx, payload, run) => attemptDelivery(ctx, senderFor(ctx), payload, run.signal, run.isLastAttempt),
  onGiveUp: (ctx, payload) => giveUp(ctx, payload.messageId),
});

export const webhookSingleAttemptJob = defineJob<AppContext, typeof WEBHOOK_SINGLE_ATTEMPT_JOB>({
  kind: WEBHOOK_SINGLE_ATTEMPT_JOB,
  payload: deliveryPayload,
  maxAttempts: 1,
  async handler(ctx, payload, run) {
    await attemptDelivery(ctx, senderFor(ctx), payload, run.signal, true).catch(() => undefined);
    return {};
  },
});

export const webhookExpiryScanJob = defineJob<AppContext, typeof WEBHOOK_EXPIRY_SCAN_JOB>({
  kind: WEBHOOK_EXPIRY_SCAN_JOB,
  payload: expiryScanPayload,
  maxAttempts: 1,
  async handler(ctx, payload) {
    const now = ctx.clock.now();
    const since = new Date(payload.since);
    try {
      const announced = await announceExpiredLicenses(ctx, since, now);
      await scheduleExpiryScan(ctx, now);
      return { announced };
    } catch (error) {
      // The chain of scans must not end: the next one covers this span again (announcements are idempotent).
      ctx.log.warn({ err: error }, 'license expiry scan failed; the next scan covers its span');
      await scheduleExpiryScan(ctx, since);
      return { failed: true };
    }
  },
});
