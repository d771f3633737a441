import {
  type CreateWebhookEndpointInput,
  webhookMessages as messages,
  type UpdateWebhookEndpointInput,
  WEBHOOK_LIMITS,
  WEBHOOK_TEST_EVENT,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEndpointWithSecret,
  type WebhookEventType,
} from '../../../contract/webhooks.js';
import {
  createAddressResolver,
  parseTargetUrl,
  resolveTarget,
  WebhookTargetError,
} from '../../adapters/http-delivery/public-address.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';
import { findLatestJobsByReference } from '../../jobs/jobs.repository.js';
import { encryptSecret } from '../../lib/crypto.js';
import { recordAuditEvent, type Transaction } from '../shared/audit/audit.service.js';
import {
  eventBody,
  messageReference,
  queueMessage,
  WEBHOOK_DELIVERY_JOB,
  WEBHOOK_SINGLE_ATTEMPT_JOB,
} from './webhook-delivery.js';
import { generateWebhookSecret } from './webhook-signing.js';
import type { EndpointRow, MessageRow, NewEndpointRow } from './webhooks.repository.js';
import * as repository from './webhooks.repository.js';

// The seller's webhook endpoints (issue 14), the same rules for the Webhooks page and API v1: register (secret
// shown once), list, edit, enable or disable, rotate the secret, delete; the deliveries of each with their
// attempts; redeliver one; send a test event.

function presentEndpoint(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events as WebhookEventType[],
    isEnabled: row.isEnabled,
    disabledReason: row.disabledReason,
    disabledAt: row.disabledAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The URL, checked as a delivery will check it: http(s), no credentials, every address it resolves to public. */
async function checkTargetUrl(ctx: AppContext, raw: string): Promise<string> {
  try {
    const url = parseTargetUrl(raw);
    await resolveTarget(url, createAddressResolver(ctx.config.dnsServers), ctx.config.webhookAllowedHosts);
    return url.toString();
  } catch (error) {
    if (error instanceof WebhookTargetError) {
      throw new AppError('VALIDATION_FAILED', error.message, {
        suggestion:
          error.reason === 'not-public'
            ? 'Webhooks go only to public addresses; private, loopback and link-local targets are refused.'
            : undefined,
      });
    }
    throw error;
  }
}

async function getEndpointRow(ctx: AppContext, sellerId: string, endpointId: string): Promise<EndpointRow> {
  const row = await repository.findEndpointOfSeller(ctx.db, sellerId, endpointId);
  if (!row) throw new AppError('NOT_FOUND', messages.endpointNotFound);
  return row;
}

export async function listEndpoints(ctx: AppContext, sellerId: string): Promise<WebhookEndpoint[]> {
  const rows = await repository.selectEndpointsOfSeller(ctx.db, sellerId);
  return rows.map(presentEndpoint);
}

export async function getEndpoint(ctx: AppContext, sellerId: string, endpointId: string): Promise<WebhookEndpoint> {
  return presentEndpoint(await getEndpointRow(ctx, sellerId, endpointId));
}

/** Every change of an endpoint is in the audit trail, naming who made it (a session or an API token). */
async function audit(
  tx: Transaction,
  ctx: AppContext,
  actor: Principal,
  action: string,
  endpoint: EndpointRow,
  extra = {},
) {
  await recordAuditEvent(tx, ctx, actor, {
    action,
    targetType: 'webhook_endpoint',
    targetId: endpoint.id,
    details: { url: endpoint.url, events: endpoint.events, isEnabled: endpoint.isEnabled, ...extra },
  });
}

export async function createEndpoint(
  ctx: AppContext,
  actor: Principal,
  input: CreateWebhookEndpointInput,
): Promise<WebhookEndpointWithSecret> {
  const { sellerId } = actor;
  const url = await checkTargetUrl(ctx, input.url);
  const secret = generateWebhookSecret();
  const now = ctx.clock.now();
  const row = await ctx.db.transaction(async (tx) => {
    // Two registrations at the limit must not both pass the count.
    await repository.lockEndpointsOfSeller(tx, sellerId);
    if ((await repository.countEndpointsOfSeller(tx, sellerId)) >= WEBHOOK_LIMITS.maxEndpoints) {
      throw new AppError('CONFLICT', messages.tooManyEndpoints, {
        suggestion: 'Delete an endpoint you no longer use, or let one endpoint listen to several events.',
      });
    }
    const inserted = await repository.insertEndpoint(tx, {
      sellerId,
      url,
      description: input.description || null,
      events: [...new Set(input.events)],
      secretSealed: encryptSecret(ctx.config.secretKey, secret),
      createdAt: now,
      updatedAt: now,
    });
    await audit(tx, ctx, actor, 'webhook.created', inserted);
    return inserted;
  });
  return { ...presentEndpoint(row), secret };
}

export async function updateEndpoint(
  ctx: AppContext,
  actor: Principal,
  endpointId: string,
  input: UpdateWebhookEndpointInput,
): Promise<WebhookEndpoint> {
  const row = await getEndpointRow(ctx, actor.sellerId, endpointId);
  const now = ctx.clock.now();
  const changes: Partial<NewEndpointRow> = {};
  if (input.url !== undefined) changes.url = await checkTargetUrl(ctx, input.url);
  if (input.events !== undefined) changes.events = [...new Set(input.events)];
  if (input.description !== undefined) changes.description = input.description || null;
  if (input.isEnabled === true && !row.isEnabled) {
    Object.assign(changes, { isEnabled: true, disabledReason: null, disabledAt: null });
  } else if (input.isEnabled === false && row.isEnabled) {
    Object.assign(changes, { isEnabled: false, disabledReason: 'seller', disabledAt: now });
  }
  if (Object.keys(changes).length === 0) {
    if (input.isEnabled !== undefined) return presentEndpoint(row);
    throw new AppError('VALIDATION_FAILED', messages.nothingToUpdate);
  }
  const updated = await ctx.db.transaction(async (tx) => {
    const changed = await repository.updateEndpointRow(tx, row.id, { ...changes, updatedAt: now });
    await audit(tx, ctx, actor, 'webhook.updated', changed ?? row, { changed: Object.keys(changes) });
    return changed ?? row;
  });
  return presentEndpoint(updated);
}

/** A new secret at once; deliveries from now on are signed with it (the old one stops verifying). */
export async function rotateSecret(
  ctx: AppContext,
  actor: Principal,
  endpointId: string,
): Promise<WebhookEndpointWithSecret> {
  const row = await getEndpointRow(ctx, actor.sellerId, endpointId);
  const secret = generateWebhookSecret();
  const updated = await ctx.db.transaction(async (tx) => {
    const changed = await repository.updateEndpointRow(tx, row.id, {
      secretSealed: encryptSecret(ctx.config.secretKey, secret),
      updatedAt: ctx.clock.now(),
    });
    await audit(tx, ctx, actor, 'webhook.secret_rotated', changed ?? row);
    return changed ?? row;
  });
  return { ...presentEndpoint(updated), secret };
}

export async function deleteEndpoint(ctx: AppContext, actor: Principal, endpointId: string): Promise<{ id: string }> {
  const row = await getEndpointRow(ctx, actor.sellerId, endpointId);
  await ctx.db.transaction(async (tx) => {
    await repository.deleteEndpointRow(tx, row.id);
    await audit(tx, ctx, actor, 'webhook.deleted', row);
  });
  return { id: row.id };
}

/** The endpoint's latest deliveries, newest first, each with its attempts and the next one's time. */
export async function listDeliveries(
  ctx: AppContext,
  sellerId: string,
  endpointId: string,
): Promise<WebhookDelivery[]> {
  const endpoint = await getEndpointRow(ctx, sellerId, endpointId);
  const rows = await repository.selectLatestMessagesOfEndpoint(ctx.db, endpoint.id, WEBHOOK_LIMITS.deliveriesListed);
  return presentDeliveries(ctx, rows);
}

async function presentDeliveries(ctx: AppContext, rows: MessageRow[]): Promise<WebhookDelivery[]> {
  const ids = rows.map((row) => row.id);
  const attempts = await repository.selectAttemptsOfMessages(ctx.db, ids);
  const jobs = await findLatestJobsByReference(ctx.db, ids.map(messageReference), WEBHOOK_DELIVERY_JOB);
  return rows.map((row) => {
    const job = jobs.get(messageReference(row.id));
    return {
      id: row.id,
      eventType: row.eventType,
      status: row.status,
      createdAt: row.createdAt.toISOString(),
      nextAttemptAt:
        row.status === 'pending' && job?.status === 'queued' && job.attempts > 0 ? job.runAt.toISOString() : null,
      attempts: attempts
        .filter((attempt) => attempt.messageId === row.id)
        .map((attempt) => ({
          attemptedAt: attempt.attemptedAt.toISOString(),
          durationMs: attempt.durationMs,
          responseStatus: attempt.responseStatus,
          isSuccess: attempt.isSuccess,
          error: attempt.error,
          trigger: attempt.trigger,
        })),
    };
  });
}

async function getDelivery(ctx: AppContext, endpointId: string, deliveryId: string) {
  const row = await repository.findMessageOfEndpoint(ctx.db, endpointId, deliveryId);
  if (!row) throw new AppError('NOT_FOUND', messages.deliveryNotFound);
  return row;
}

function requireEnabled(endpoint: EndpointRow): void {
  if (!endpoint.isEnabled) {
    throw new AppError('CONFLICT', messages.endpointDisabled, { suggestion: 'Enable the endpoint, then try again.' });
  }
}

/** Sends the delivery once more, now, with the same webhook-id (a receiver that handled it already ignores it). */
export async function redeliver(
  ctx: AppContext,
  sellerId: string,
  endpointId: string,
  deliveryId: string,
): Promise<WebhookDelivery> {
  const endpoint = await getEndpointRow(ctx, sellerId, endpointId);
  requireEnabled(endpoint);
  const row = await getDelivery(ctx, endpoint.id, deliveryId);
  const now = ctx.clock.now();
  const pending = await repository.markMessagePending(ctx.db, row.id, now);
  await ctx.jobs.enqueue(
    WEBHOOK_SINGLE_ATTEMPT_JOB,
    { messageId: row.id, trigger: 'redelivery' },
    { reference: `${messageReference(row.id)}:redelivery` },
  );
  const [delivery] = await presentDeliveries(ctx, [pending ?? row]);
  return delivery!;
}

/** A `webhook.test` event to this endpoint alone, whatever it listens to; one attempt. */
export async function sendTestEvent(ctx: AppContext, sellerId: string, endpointId: string): Promise<WebhookDelivery> {
  const endpoint = await getEndpointRow(ctx, sellerId, endpointId);
  requireEnabled(endpoint);
  const now = ctx.clock.now();
  const body = eventBody(WEBHOOK_TEST_EVENT, now, {
    endpointId: endpoint.id,
    message: 'This is a test event from Packgate.',
  });
  const messageId = await queueMessage(ctx, ctx.db, endpoint.id, WEBHOOK_TEST_EVENT, body, WEBHOOK_SINGLE_ATTEMPT_JOB);
  const row = await getDelivery(ctx, endpoint.id, messageId);
  const [delivery] = await presentDeliveries(ctx, [row]);
  return delivery!;
}
