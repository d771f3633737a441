import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { markConnectionBroken, markConnectionWorking } from '../code-hosts/code-hosts.service.js';
import { findInstallationConnections, forgetInstallationToken } from '../code-hosts/github-app-connect.service.js';
import { claimInboundDelivery } from '../shared/inbound-webhooks/inbound-deliveries.service.js';
import type { GithubDelivery, GithubWebhookAnswer } from './github-webhook.service.js';
import { syncPackage } from './package-sync.js';
import {
  renameRepositoryOfPackages,
  selectPackagesOfConnectionRepositories,
  setAccessProblemOfConnectionRepositories,
} from './packages.repository.js';

// The GitHub App's one webhook (docs.github.com "Webhook events and payloads"), signed with GITHUB_APP_WEBHOOK_SECRET
// in X-Hub-Signature-256. Every event names its installation; Packgate acts on the packages of that installation's
// connection: pushes and tag/branch creations or deletions sync, a renamed repository is renamed, a repository gone,
// archived, transferred or taken out of the installation shows as the package's access problem, and an uninstalled
// or suspended installation breaks its connection. Composer keeps serving what was published in every case.

const SYNC_EVENTS = new Set(['push', 'create', 'delete']);

function invalidSignature(): AppError {
  return new AppError('UNAUTHENTICATED', 'The webhook signature does not match.', {
    title: 'Invalid Signature',
    suggestion: 'Set GITHUB_APP_WEBHOOK_SECRET to the webhook secret of the GitHub App.',
  });
}

function signatureMatches(secret: string, rawBody: Buffer, signature: string): boolean {
  const match = /^sha256=([0-9a-f]{64})$/i.exec(signature.trim());
  if (!match) return false;
  return timingSafeEqual(createHmac('sha256', secret).update(rawBody).digest(), Buffer.from(match[1]!, 'hex'));
}

type Payload = {
  action?: string;
  installation?: { id?: number; account?: { login?: string } };
  repository?: { id?: number; full_name?: string };
  repositories_removed?: { id?: number }[];
  repositories_added?: { id?: number }[];
};

function parse(rawBody: Buffer): Payload {
  try {
    const payload = JSON.parse(rawBody.toString('utf8')) as unknown;
    if (payload && typeof payload === 'object' && !Array.isArray(payload)) return payload as Payload;
  } catch {
    // answered below
  }
  throw new AppError('BAD_REQUEST', 'The webhook body is not a JSON object.');
}

const PROBLEMS: Record<string, string> = {
  deleted: 'The repository was deleted on GitHub. Every published version is still served; no new ones can come.',
  archived:
    'The repository was archived on GitHub, so no new versions will come. Every published version is still served.',
  transferred:
    'The repository was transferred to another GitHub account, outside the App’s installation. Install the GitHub App there from Code hosts, then refresh the package.',
  removed:
    'The repository was taken out of the GitHub App’s installation, so Packgate can no longer read it; every published version is still served. Add it back to the installation on GitHub (Configure), then refresh the package.',
};

/** Verifies and acts on one delivery of the App's webhook. */
export async function receiveGithubAppWebhook(ctx: AppContext, delivery: GithubDelivery): Promise<GithubWebhookAnswer> {
  const secret = ctx.config.githubApp?.webhookSecret;
  if (!secret || !delivery.signature || !signatureMatches(secret, delivery.rawBody, delivery.signature)) {
    throw invalidSignature();
  }
  const payload = parse(delivery.rawBody);
  const event = delivery.event ?? 'unknown';
  if (delivery.deliveryId && !(await claimInboundDelivery(ctx, 'github', delivery.deliveryId))) {
    return { status: 200, body: { received: true, event, duplicate: true } };
  }
  const installationId = payload.installation?.id === undefined ? undefined : String(payload.installation.id);
  if (!installationId) return { status: 200, body: { received: true, event, ignored: true } };
  const connections = await findInstallationConnections(ctx, installationId);
  // `installation` created: nothing until the seller comes back through the Setup URL and is verified.
  if (connections.length === 0) return { status: 200, body: { received: true, event, ignored: true } };
  const connectionIds = connections.map((connection) => connection.id);
  const repositoryId = payload.repository?.id === undefined ? undefined : String(payload.repository.id);

  if (SYNC_EVENTS.has(event) && repositoryId) {
    const taskIds: string[] = [];
    for (const pkg of await packagesOf(ctx, connectionIds, [repositoryId])) {
      taskIds.push((await syncPackage(ctx, pkg.id, { userId: pkg.ownerId })).taskId);
    }
    return { status: 202, body: { received: true, event, taskIds } };
  }
  if (event === 'installation') {
    const action = payload.action;
    if (action === 'deleted' || action === 'suspend') {
      forgetInstallationToken(ctx, installationId);
      const problem =
        action === 'deleted'
          ? `The GitHub App was uninstalled from ${payload.installation?.account?.login ?? 'the account'}. Packgate can no longer read its repositories; every published version is still served. Install the App again from Code hosts.`
          : `The GitHub App’s installation on ${payload.installation?.account?.login ?? 'the account'} was suspended. Packgate cannot read its repositories until it is unsuspended on GitHub; every published version is still served.`;
      for (const id of connectionIds) await markConnectionBroken(ctx, id, problem);
    } else if (action === 'unsuspend') {
      for (const id of connectionIds) await markConnectionWorking(ctx, id);
    }
    return { status: 200, body: { received: true, event } };
  }
  if (event === 'installation_repositories') {
    // Add Package lists the installation's repositories live, so additions need nothing more than this.
    const removed = (payload.repositories_removed ?? []).map((repo) => String(repo.id));
    const added = (payload.repositories_added ?? []).map((repo) => String(repo.id));
    await setAccessProblem(ctx, connectionIds, removed, PROBLEMS.removed!);
    await setAccessProblem(ctx, connectionIds, added, null);
    return { status: 200, body: { received: true, event } };
  }
  if (event === 'repository' && repositoryId) {
    const action = payload.action ?? '';
    if (action === 'renamed' && payload.repository?.full_name) {
      await renameRepositoryOfPackages(
        ctx.db,
        connectionIds,
        repositoryId,
        payload.repository.full_name.slice(0, 300),
        ctx.clock.now(),
      );
    } else if (PROBLEMS[action]) {
      await setAccessProblem(ctx, connectionIds, [repositoryId], PROBLEMS[action]!);
    } else if (action === 'unarchived') {
      await setAccessProblem(ctx, connectionIds, [repositoryId], null);
    }
    return { status: 200, body: { received: true, event } };
  }
  return { status: 200, body: { received: true, event, ignored: true } };
}

async function packagesOf(ctx: AppContext, connectionIds: string[], repositoryIds: string[]) {
  if (repositoryIds.length === 0) return [];
  return selectPackagesOfConnectionRepositories(ctx.db, connectionIds, repositoryIds);
}

/** Sets (or with null clears) the access problem of the installation's packages of these repositories. */
async function setAccessProblem(
  ctx: AppContext,
  connectionIds: string[],
  repositoryIds: string[],
  problem: string | null,
): Promise<void> {
  if (repositoryIds.length === 0) return;
  await setAccessProblemOfConnectionRepositories(ctx.db, connectionIds, repositoryIds, problem, ctx.clock.now());
}
