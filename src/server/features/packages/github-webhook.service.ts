import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { decryptSecret } from '../../lib/crypto.js';
import { claimInboundDelivery } from '../shared/inbound-webhooks/inbound-deliveries.service.js';
import { syncPackage } from './package-sync.js';
import { selectWebhookPackagesOfRepository } from './packages.repository.js';

// GitHub's push webhook (docs.github.com: "Validating webhook deliveries", "Webhook events and payloads"):
// the body is signed with HMAC-SHA256 under the hook's secret (one per package) in X-Hub-Signature-256,
// X-GitHub-Event names the event and X-GitHub-Delivery identifies the delivery, which GitHub may send again.

export type GithubDelivery = {
  event: string | undefined;
  deliveryId: string | undefined;
  signature: string | undefined;
  contentType: string | undefined;
  rawBody: Buffer;
};

export type GithubWebhookAnswer = {
  status: 200 | 202;
  body: { received: true; event: string; duplicate?: true; ignored?: true; taskIds?: string[] };
};

/** Events that add, move or remove tags and branches. */
const SYNC_EVENTS = new Set(['push', 'create', 'delete']);

function invalidSignature(): AppError {
  return new AppError('UNAUTHENTICATED', 'The webhook signature does not match.', {
    title: 'Invalid Signature',
    suggestion: "Check that the webhook's secret is the one Packgate registered; delete and re-add the package if not.",
  });
}

/** GitHub sends JSON, or with content type form the JSON in a `payload` field; the signature covers the raw body. */
function parsePayload(contentType: string | undefined, rawBody: Buffer): Record<string, unknown> {
  let text = rawBody.toString('utf8');
  if ((contentType ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')) {
    text = new URLSearchParams(text).get('payload') ?? '';
  }
  try {
    const payload = JSON.parse(text) as unknown;
    if (payload && typeof payload === 'object' && !Array.isArray(payload)) return payload as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw new AppError('BAD_REQUEST', 'The webhook body is not a JSON object.');
}

function signatureMatches(secret: string, rawBody: Buffer, signature: string): boolean {
  const match = /^sha256=([0-9a-f]{64})$/i.exec(signature.trim());
  if (!match) return false;
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(match[1]!, 'hex'));
}

/** Verifies a delivery against the packages of its repository and syncs them on a push. */
export async function receiveGithubWebhook(ctx: AppContext, delivery: GithubDelivery): Promise<GithubWebhookAnswer> {
  if (!delivery.signature) throw invalidSignature();
  const payload = parsePayload(delivery.contentType, delivery.rawBody);
  const repository = payload.repository as { id?: unknown } | undefined;
  const repositoryId =
    typeof repository?.id === 'number' || typeof repository?.id === 'string' ? String(repository.id) : undefined;
  if (!repositoryId) throw new AppError('BAD_REQUEST', 'The webhook payload names no repository.');

  const candidates = await selectWebhookPackagesOfRepository(ctx.db, 'github', repositoryId);
  // Each package's hook has its own secret: the signature says which package the delivery is for.
  const matched = candidates.filter((candidate) => {
    try {
      return signatureMatches(
        decryptSecret(ctx.config.secretKey, candidate.secret!),
        delivery.rawBody,
        delivery.signature!,
      );
    } catch {
      return false;
    }
  });
  if (matched.length === 0) throw invalidSignature();

  const event = delivery.event ?? 'unknown';
  if (delivery.deliveryId && !(await claimInboundDelivery(ctx, 'github', delivery.deliveryId))) {
    return { status: 200, body: { received: true, event, duplicate: true } };
  }

  if (!SYNC_EVENTS.has(event)) return { status: 200, body: { received: true, event, ignored: true } };
  const taskIds: string[] = [];
  for (const pkg of matched) {
    // The owner watches the sync a push started, as if they had clicked refresh.
    const sync = await syncPackage(ctx, pkg.id, { userId: pkg.ownerId });
    taskIds.push(sync.taskId);
  }
  ctx.log.info({ event, deliveryId: delivery.deliveryId, packages: matched.map((pkg) => pkg.id) }, 'webhook sync');
  return { status: 202, body: { received: true, event, taskIds } };
}
