import type { AppContext } from '../../../context.js';
import type { Database } from '../../../db/client.js';
import type { JobKind, JobPayloads } from '../../../jobs/job-definition.js';
import { DAY_MS } from '../../../lib/clock.js';
import type { InboundWebhookSource } from './inbound-deliveries.repository.js';
import * as repository from './inbound-deliveries.repository.js';

// The webhooks we receive (GitHub's pushes, Stripe's billing and Connect events) are redelivered on timeouts and on
// request; a repeated delivery must do nothing new. This module alone writes webhook_deliveries: the receivers claim
// a delivery before they act on it and give it back when acting failed, or (payment providers' events) record the
// delivery together with the durable job that applies it, so that an event answered 200 is never lost.

export type { InboundWebhookSource };

/** Longer than any sender retries (Stripe: 3 days) or than a redelivery is likely asked for by hand. */
const DELIVERY_MEMORY_MS = 30 * DAY_MS;
const MAX_DELIVERY_ID_LENGTH = 200;

const key = (deliveryId: string) => deliveryId.slice(0, MAX_DELIVERY_ID_LENGTH);

/**
 * Records the delivery the first time it arrives: true then, false for a delivery already handled. Forgets the
 * source's deliveries older than the memory on the way.
 */
export async function claimInboundDelivery(
  ctx: Pick<AppContext, 'db' | 'clock'>,
  source: InboundWebhookSource,
  deliveryId: string,
  options: { db?: Database } = {},
): Promise<boolean> {
  const db = options.db ?? ctx.db;
  const now = ctx.clock.now();
  const isNew = await repository.insertDeliveryIfNew(db, source, key(deliveryId), now);
  await repository.deleteDeliveriesReceivedBefore(db, source, new Date(now.getTime() - DELIVERY_MEMORY_MS));
  return isNew;
}

/** Gives back a delivery whose handling failed, so that the sender's retry applies it. */
export async function releaseInboundDelivery(
  ctx: Pick<AppContext, 'db'>,
  source: InboundWebhookSource,
  deliveryId: string,
): Promise<void> {
  await repository.deleteDelivery(ctx.db, source, key(deliveryId));
}

/**
 * Records a delivery and the job that applies it in one transaction: true when it was new (the job is queued and
 * the runner woken), false for a delivery recorded before. The caller answers the sender only after this, so an
 * event is either stored for good or refused (and sent again by the sender).
 */
export async function recordInboundEvent<Kind extends JobKind>(
  ctx: Pick<AppContext, 'db' | 'clock' | 'jobs'>,
  source: InboundWebhookSource,
  deliveryId: string,
  job: { kind: Kind; payload: JobPayloads[Kind] },
): Promise<boolean> {
  const isNew = await ctx.db.transaction(async (tx) => {
    if (!(await claimInboundDelivery(ctx, source, deliveryId, { db: tx }))) return false;
    await ctx.jobs.enqueue(job.kind, job.payload, { db: tx, reference: inboundEventReference(source, deliveryId) });
    return true;
  });
  if (isNew) ctx.jobs.wake();
  return isNew;
}

/** The reference of the job that applies a delivery (`stripe-event:connect:evt_…`). */
export function inboundEventReference(source: InboundWebhookSource, deliveryId: string): string {
  return `${source}-event:${key(deliveryId)}`;
}
