import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { decryptSecret } from '../../lib/crypto.js';
import { claimInboundDelivery } from '../shared/inbound-webhooks/inbound-deliveries.service.js';
import { syncPackage } from './package-sync.js';
import { selectWebhookPackagesOfRepository, type WebhookCandidate } from './packages.repository.js';

// Push webhooks of GitLab and Bitbucket Cloud. Each package's hook has its own secret (packages.webhook_secret):
// GitLab sends it back verbatim in X-Gitlab-Token (docs.gitlab.com: "Webhooks", "Validate requests with a secret
// token"); Bitbucket signs the raw body with HMAC-SHA256 under it in X-Hub-Signature (`sha256=<hex>`, Bitbucket's
// "Manage webhooks": "Secure webhooks"). Both compare in constant time; a delivery seen before (X-Gitlab-Event-UUID,
// X-Request-UUID) syncs nothing new.

export const GITLAB_WEBHOOK_PATH = '/api/webhooks/gitlab';
export const BITBUCKET_WEBHOOK_PATH = '/api/webhooks/bitbucket';

/** Where each host's push webhook is delivered. */
export function webhookPathFor(codeHost: string): string {
  if (codeHost === 'gitlab') return GITLAB_WEBHOOK_PATH;
  if (codeHost === 'bitbucket') return BITBUCKET_WEBHOOK_PATH;
  return '/api/webhooks/github';
}

export type HostDelivery = {
  event: string | undefined;
  deliveryId: string | undefined;
  /** GitLab: X-Gitlab-Token; Bitbucket: X-Hub-Signature. */
  credential: string | undefined;
  rawBody: Buffer;
};

export type HostWebhookAnswer = {
  status: 200 | 202;
  body: { received: true; event: string; duplicate?: true; ignored?: true; taskIds?: string[] };
};

const GITLAB_SYNC_EVENTS = new Set(['Push Hook', 'Tag Push Hook']);
const BITBUCKET_SYNC_EVENTS = new Set(['repo:push']);

function refused(header: string): AppError {
  return new AppError('UNAUTHENTICATED', `The webhook's ${header} does not match.`, {
    title: 'Invalid Signature',
    suggestion: "Check that the webhook's secret is the one Packgate registered; delete and re-add the package if not.",
  });
}

function parseObject(rawBody: Buffer): Record<string, unknown> {
  try {
    const payload = JSON.parse(rawBody.toString('utf8')) as unknown;
    if (payload && typeof payload === 'object' && !Array.isArray(payload)) return payload as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw new AppError('BAD_REQUEST', 'The webhook body is not a JSON object.');
}

function sameText(expected: string, given: string): boolean {
  // Digests have one length whatever was sent, so the comparison's time tells nothing about the secret.
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(expected), digest(given));
}

function bitbucketSignatureMatches(secret: string, rawBody: Buffer, signature: string): boolean {
  const match = /^sha256=([0-9a-f]{64})$/i.exec(signature.trim());
  if (!match) return false;
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(match[1]!, 'hex'));
}

function matching(
  ctx: AppContext,
  candidates: WebhookCandidate[],
  verify: (secret: string) => boolean,
): WebhookCandidate[] {
  return candidates.filter((candidate) => {
    try {
      return verify(decryptSecret(ctx.config.secretKey, candidate.secret!));
    } catch {
      return false;
    }
  });
}

async function syncMatched(
  ctx: AppContext,
  source: 'gitlab' | 'bitbucket',
  delivery: HostDelivery,
  matched: WebhookCandidate[],
  isSyncEvent: boolean,
): Promise<HostWebhookAnswer> {
  const event = delivery.event ?? 'unknown';
  if (delivery.deliveryId && !(await claimInboundDelivery(ctx, source, delivery.deliveryId))) {
    return { status: 200, body: { received: true, event, duplicate: true } };
  }
  if (!isSyncEvent) return { status: 200, body: { received: true, event, ignored: true } };
  const taskIds: string[] = [];
  for (const pkg of matched) {
    const sync = await syncPackage(ctx, pkg.id, { userId: pkg.ownerId });
    taskIds.push(sync.taskId);
  }
  ctx.log.info(
    { source, event, deliveryId: delivery.deliveryId, packages: matched.map((pkg) => pkg.id) },
    'webhook sync',
  );
  return { status: 202, body: { received: true, event, taskIds } };
}

/** GitLab's push and tag push events: the secret token names the package; its project is synced. */
export async function receiveGitlabWebhook(ctx: AppContext, delivery: HostDelivery): Promise<HostWebhookAnswer> {
  const token = delivery.credential;
  if (!token) throw refused('X-Gitlab-Token');
  const payload = parseObject(delivery.rawBody);
  const project = payload.project as { id?: unknown } | undefined;
  const rawId = payload.project_id ?? project?.id;
  const projectId = typeof rawId === 'number' || typeof rawId === 'string' ? String(rawId) : undefined;
  if (!projectId) throw new AppError('BAD_REQUEST', 'The webhook payload names no project.');
  const matched = matching(ctx, await selectWebhookPackagesOfRepository(ctx.db, 'gitlab', projectId), (secret) =>
    sameText(secret, token),
  );
  if (matched.length === 0) throw refused('X-Gitlab-Token');
  return syncMatched(ctx, 'gitlab', delivery, matched, GITLAB_SYNC_EVENTS.has(delivery.event ?? ''));
}

/** Bitbucket's repo:push: the signature under a package's secret names the package. */
export async function receiveBitbucketWebhook(ctx: AppContext, delivery: HostDelivery): Promise<HostWebhookAnswer> {
  const signature = delivery.credential;
  if (!signature) throw refused('X-Hub-Signature');
  const payload = parseObject(delivery.rawBody);
  const repository = payload.repository as { uuid?: unknown } | undefined;
  const repositoryId = typeof repository?.uuid === 'string' ? repository.uuid : undefined;
  if (!repositoryId) throw new AppError('BAD_REQUEST', 'The webhook payload names no repository.');
  const matched = matching(ctx, await selectWebhookPackagesOfRepository(ctx.db, 'bitbucket', repositoryId), (secret) =>
    bitbucketSignatureMatches(secret, delivery.rawBody, signature),
  );
  if (matched.length === 0) throw refused('X-Hub-Signature');
  return syncMatched(ctx, 'bitbucket', delivery, matched, BITBUCKET_SYNC_EVENTS.has(delivery.event ?? ''));
}
