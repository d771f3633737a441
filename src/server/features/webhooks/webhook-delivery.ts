import type { WebhookEventType } from '../../../contract/webhooks.js';
import { createAddressResolver } from '../../adapters/http-delivery/public-address.js';
import { createWebhookSender, type WebhookSender } from '../../adapters/http-delivery/webhook-sender.js';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { appUrl } from '../../http/public-urls.js';
import { decryptSecret } from '../../lib/crypto.js';
import { findUserById } from '../users/users.service.js';
import * as repository from './webhook-delivery.repository.js';
import { generateMessageId, webhookHeaders } from './webhook-signing.js';

// Deliveries of webhooks as durable jobs (src/server/jobs): one job per message (event × endpoint). An attempt
// signs the body afresh (new timestamp, same webhook-id), posts it to the checked address and records the
// outcome; a failure is retried on a schedule that spans three days, after which the message fails, the endpoint
// is disabled and its seller is told by e-mail. Redeliveries and test events are single attempts.

export const WEBHOOK_DELIVERY_JOB = 'webhook-delivery';
export const WEBHOOK_SINGLE_ATTEMPT_JOB = 'webhook-single-attempt';
export const WEBHOOK_EXPIRY_SCAN_JOB = 'webhook-expiry-scan';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
/**
 * The waits after each failed attempt: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 20 h, so that the last of
 * the ten attempts comes about three days (71.6 h) after the first.
 */
export const WEBHOOK_RETRY_DELAYS_MS = [
  5_000,
  5 * MINUTE_MS,
  30 * MINUTE_MS,
  2 * HOUR_MS,
  5 * HOUR_MS,
  10 * HOUR_MS,
  14 * HOUR_MS,
  20 * HOUR_MS,
  20 * HOUR_MS,
] as const;
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_DELAYS_MS.length + 1;
/** Each attempt's deadline for the whole exchange (connect, send, answer). */
export const WEBHOOK_ATTEMPT_TIMEOUT_MS = 15_000;
/** How often license expiries are looked for. */
export const WEBHOOK_EXPIRY_SCAN_INTERVAL_MS = MINUTE_MS;
const EXPIRY_SCAN_BATCH = 500;

export type DeliveryPayload = { messageId: string; trigger: 'scheduled' | 'redelivery' };
export type ExpiryScanPayload = { since: string };

/** The app's webhook sender, made once per app (it holds the address resolver). */
export function senderFor(ctx: AppContext): WebhookSender {
  let sender = senders.get(ctx);
  if (!sender) {
    sender = createSenderFor(ctx);
    senders.set(ctx, sender);
  }
  return sender;
}
const senders = new WeakMap<AppContext, WebhookSender>();

export function createSenderFor(ctx: AppContext): WebhookSender {
  return createWebhookSender({
    resolver: createAddressResolver(ctx.config.dnsServers),
    allowList: ctx.config.webhookAllowedHosts,
    timeoutMs: WEBHOOK_ATTEMPT_TIMEOUT_MS,
    userAgent: 'Packgate-Webhooks/1.0',
  });
}

/** The reference of a message's jobs, for the next-attempt time the deliveries list shows. */
export function messageReference(messageId: string): string {
  return `webhook-message:${messageId}`;
}

/** The body every endpoint receives: `{type, timestamp, data}`, as the specification suggests. */
export function eventBody(type: string, occurredAt: Date, data: Record<string, unknown>): string {
  return JSON.stringify({ type, timestamp: occurredAt.toISOString(), data });
}

/**
 * Queues the event for each of the seller's enabled endpoints that listen to its type. Pass the transaction the
 * event happens in as `db`, so that its deliveries exist exactly when it does.
 */
export async function queueWebhookEvent(
  ctx: AppContext,
  sellerId: string,
  type: WebhookEventType,
  data: Record<string, unknown>,
  options: { db?: Database } = {},
): Promise<number> {
  const db = options.db ?? ctx.db;
  const endpointIds = await repository.selectListeningEndpointIds(db, sellerId, type);
  if (endpointIds.length === 0) return 0;
  const now = ctx.clock.now();
  const body = eventBody(type, now, data);
  for (const endpointId of endpointIds) {
    await queueMessage(ctx, db, endpointId, type, body, WEBHOOK_DELIVERY_JOB);
  }
  return endpointIds.length;
}

export async function queueMessage(
  ctx: AppContext,
  db: Database,
  endpointId: string,
  type: string,
  body: string,
  jobKind: typeof WEBHOOK_DELIVERY_JOB | typeof WEBHOOK_SINGLE_ATTEMPT_JOB,
): Promise<string> {
  const now = ctx.clock.now();
  const messageId = generateMessageId();
  await repository.insertMessage(db, {
    id: messageId,
    endpointId,
    eventType: type,
    body,
    status: 'pending',
    createdAt: now,
    updatedAt: now,
  });
  await ctx.jobs.enqueue(jobKind, { messageId, trigger: 'scheduled' } satisfies DeliveryPayload, {
    db,
    reference: messageReference(messageId),
  });
  return messageId;
}

/** Keeps one scan queued (joining a queued one of another process instead of adding a second). */
export async function scheduleExpiryScan(ctx: AppContext, since: Date): Promise<void> {
  if (await ctx.jobs.findQueued(WEBHOOK_EXPIRY_SCAN_JOB, WEBHOOK_EXPIRY_SCAN_JOB)) return;
  await ctx.jobs.enqueue(WEBHOOK_EXPIRY_SCAN_JOB, { since: since.toISOString() } satisfies ExpiryScanPayload, {
    concurrencyKey: WEBHOOK_EXPIRY_SCAN_JOB,
    delayMs: WEBHOOK_EXPIRY_SCAN_INTERVAL_MS,
  });
}

export async function attemptDelivery(
  ctx: AppContext,
  sender: WebhookSender,
  payload: DeliveryPayload,
  signal: AbortSignal,
  isLastAttempt: boolean,
): Promise<Record<string, unknown>> {
  const found = await repository.findMessageWithEndpoint(ctx.db, payload.messageId);
  // Deleted with its endpoint: nothing left to deliver.
  if (!found) return { skipped: 'gone' };
  const { message, endpoint } = found;
  if (!endpoint.isEnabled) {
    await setMessageStatus(ctx, message.id, 'failed');
    return { skipped: 'endpoint disabled' };
  }
  const secret = decryptSecret(ctx.config.secretKey, endpoint.secretSealed);
  const attemptedAt = ctx.clock.now();
  const timestamp = Math.floor(attemptedAt.getTime() / 1000);
  const result = await sender.post(
    { url: endpoint.url, headers: webhookHeaders(secret, message.id, timestamp, message.body), body: message.body },
    signal,
  );
  const isSuccess = result.kind === 'answered' && result.status >= 200 && result.status < 300;
  ctx.metrics.webhookAttempted(isSuccess ? 'delivered' : 'failed');
  const error =
    result.kind === 'failed'
      ? result.error
      : isSuccess
        ? null
        : result.status >= 300 && result.status < 400
          ? `Answered ${result.status}: redirects are not followed`
          : `Answered ${result.status}`;
  await repository.insertAttempt(ctx.db, {
    messageId: message.id,
    attemptedAt,
    durationMs: result.durationMs,
    responseStatus: result.kind === 'answered' ? result.status : null,
    isSuccess,
    error,
    trigger: payload.trigger,
  });
  await repository.countAttempt(
    ctx.db,
    message.id,
    attemptedAt,
    isSuccess ? 'delivered' : isLastAttempt ? 'failed' : undefined,
  );
  if (!isSuccess) throw new Error(error ?? 'not delivered');
  return { status: result.kind === 'answered' ? result.status : null };
}

async function setMessageStatus(ctx: AppContext, messageId: string, status: 'pending' | 'delivered' | 'failed') {
  await repository.setMessageStatus(ctx.db, messageId, status, ctx.clock.now());
}

/** Three days of failures: the endpoint is disabled and its seller told, once. */
export async function giveUp(ctx: AppContext, messageId: string): Promise<void> {
  await setMessageStatus(ctx, messageId, 'failed');
  const now = ctx.clock.now();
  const disabled = await repository.disableFailingEndpointOfMessage(ctx.db, messageId, now);
  if (!disabled) return;
  const seller = await findUserById(ctx, disabled.sellerId);
  ctx.log.warn({ endpointId: disabled.id }, 'webhook endpoint disabled after three days of failed deliveries');
  if (!seller?.email) return;
  const page = appUrl(ctx.config, '/webhooks');
  await ctx.mailer.send({
    to: seller.email,
    subject: 'Webhook endpoint disabled',
    text: [
      `Deliveries to your webhook endpoint ${disabled.url} failed for three days, so Packgate has disabled it.`,
      '',
      'No further events are sent to it. Check the endpoint, then enable it again on the Webhooks page:',
      page,
    ].join('\n'),
    links: [page],
  });
}

/**
 * Announces `license.expired` for each grant whose expiry passed in (since, now], once per grant and expiry
 * (a second scan of the same span, in another process, finds them announced). Only sellers with an endpoint that
 * listens to the event are looked at.
 */
export async function announceExpiredLicenses(ctx: AppContext, since: Date, now: Date): Promise<number> {
  const expired = await repository.selectLicensesExpiredBetween(ctx.db, since, now, EXPIRY_SCAN_BATCH);
  let announced = 0;
  for (const row of expired) {
    const expiresAt = row.grant.expiresAt!;
    await ctx.db.transaction(async (tx) => {
      if (!(await repository.claimLicenseExpiry(tx, row.grant.id, expiresAt, now))) return;
      announced++;
      await queueWebhookEvent(
        ctx,
        row.sellerId,
        'license.expired',
        licenseEventData(row.grant, { email: row.email, packageName: row.packageName }),
        { db: tx },
      );
    });
  }
  return announced;
}

/** The `data` of license events: the license as API v1 shows its terms. */
export function licenseEventData(
  grant: {
    id: string;
    packageId: string | null;
    productId: string | null;
    kind: string;
    status: string;
    expiresAt: Date | null;
    endMode: string;
    downloadLimit: number | null;
    downloadCount: number;
    versionConstraint: string | null;
    minimumStability: string;
    seats: number | null;
    createdAt: Date;
    revokedAt: Date | null;
  },
  holder: { email: string; packageName: string },
): Record<string, unknown> {
  return {
    id: grant.id,
    packageId: grant.packageId,
    productId: grant.productId,
    packageName: holder.packageName,
    email: holder.email,
    kind: grant.kind,
    status: grant.status,
    expiresAt: grant.expiresAt?.toISOString() ?? null,
    endMode: grant.endMode,
    downloadLimit: grant.downloadLimit,
    downloadCount: grant.downloadCount,
    versionConstraint: grant.versionConstraint,
    minimumStability: grant.minimumStability,
    seats: grant.seats,
    createdAt: grant.createdAt.toISOString(),
    revokedAt: grant.revokedAt?.toISOString() ?? null,
  };
}
