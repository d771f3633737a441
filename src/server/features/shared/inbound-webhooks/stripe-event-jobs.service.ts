import type { AppContext } from '../../../context.js';
import { defineJob, type JobDefinition, type JobKind, type JobPayloads } from '../../../jobs/job-definition.js';
import { crashPoint } from '../../../lib/crash-points.js';
import { recordInboundEvent, releaseInboundDelivery } from './inbound-deliveries.service.js';

// The job that applies one stored Stripe event (billing's platform events, sales' Connect events): recorded with
// its delivery before the webhook is answered, retried with backoff up to a cap, and, once its attempts are spent,
// forgotten as a delivery so that resending it from Stripe's dashboard applies it.

type EventPayload = { eventId: string; type: string };

export function defineStripeEventJob<Kind extends JobKind>(options: {
  kind: Kind;
  payload: JobDefinition<AppContext, Kind, JobPayloads[Kind]>['payload'];
  maxAttempts: number;
  /** The longest wait between two attempts. */
  maxDelayMs: number;
  /** The delivery's key in the inbound deliveries (Connect's are prefixed). */
  deliveryKey(eventId: string): string;
  /** Applies the event; answers what its log line adds to the event's id and type. */
  apply(ctx: AppContext, payload: JobPayloads[Kind]): Promise<Record<string, unknown>>;
  /** The log line of an applied event, and of one given up. */
  messages: { applied: string; givenUp: string };
}): JobDefinition<AppContext, Kind, JobPayloads[Kind]> {
  return defineJob<AppContext, Kind>({
    kind: options.kind,
    payload: options.payload,
    maxAttempts: options.maxAttempts,
    retryDelayMs: (failedAttempt) => Math.min(options.maxDelayMs, 5_000 * 2 ** (failedAttempt - 1)),
    async handler(ctx, payload) {
      const logged = await options.apply(ctx, payload);
      const { eventId, type } = payload as EventPayload;
      ctx.log.info({ eventId, type, ...logged }, options.messages.applied);
      return {};
    },
    async onGiveUp(ctx, payload, error) {
      const { eventId, type } = payload as EventPayload;
      ctx.log.error({ eventId, type, error }, options.messages.givenUp);
      await releaseInboundDelivery(ctx, 'stripe', options.deliveryKey(eventId));
    },
  });
}

/**
 * Stores a verified Stripe event with the job that applies it, then answers Stripe: received, or a duplicate of one
 * stored before. The crash point (after storing, before answering) is where the crash tests stop a process.
 */
export async function recordStripeEvent<Kind extends JobKind>(
  ctx: AppContext,
  type: string,
  deliveryKey: string,
  job: { kind: Kind; payload: JobPayloads[Kind] },
): Promise<{ received: true; type: string; duplicate?: true }> {
  if (!(await recordInboundEvent(ctx, 'stripe', deliveryKey, job))) {
    return { received: true, type, duplicate: true };
  }
  crashPoint(ctx, 'event-recorded');
  return { received: true, type };
}
