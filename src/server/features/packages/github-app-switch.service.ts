import type { AppContext } from '../../context.js';
import type { Principal } from '../../http/principal.js';
import { type CodeHostConnection, findConnectionsOf, openConnection } from '../code-hosts/code-hosts.service.js';
import { connectGithubAppInstallation } from '../code-hosts/github-app-connect.service.js';
import { recordAuditEvent } from '../shared/audit/audit.service.js';
import { movePackagesToConnection, selectGithubPackagesOnConnectionsOrNone } from './packages.repository.js';

// Switching from the old GitHub OAuth grant to the GitHub App (issue 30 item 1): once the App is installed on the
// same repositories, the seller's GitHub packages move to the App's connection. GitHub's repository ids do not
// change, so each package keeps its row, and with it its versions, licenses and download history.

export type GithubAppConnected = { connection: CodeHostConnection; movedPackages: string[] };

/** POST /api/code-hosts/github-app: verifies and stores the installation, then moves packages it can read to it. */
export async function connectGithubApp(
  ctx: AppContext,
  actor: Principal,
  input: { installationId: string; state: string },
): Promise<GithubAppConnected> {
  const ownerId = actor.sellerId;
  const connection = await connectGithubAppInstallation(ctx, actor, input);
  const movedPackages = await movePackagesToInstallation(ctx, actor, ownerId, connection);
  return { connection, movedPackages };
}

/**
 * Moves the owner's GitHub packages that sync through the OAuth grant (or through nothing, their connection removed)
 * to the installation, when the installation can read their repository. Answers the names of the packages moved.
 */
export async function movePackagesToInstallation(
  ctx: AppContext,
  actor: Principal,
  ownerId: string,
  connection: CodeHostConnection,
): Promise<string[]> {
  const oauth = await findConnectionsOf(ctx, ownerId, ['github_oauth']);
  const movable = await selectGithubPackagesOnConnectionsOrNone(
    ctx.db,
    ownerId,
    oauth.map((row) => row.id),
  );
  if (movable.length === 0) return [];
  const opened = await openConnection(ctx, connection);
  const readable = new Set((await opened.host.listRepositories(opened.user)).map((repository) => repository.id));
  const moving = movable.filter((pkg) => readable.has(pkg.repositoryId));
  if (moving.length === 0) return [];
  await removeOAuthWebhooks(ctx, moving);
  await ctx.db.transaction(async (tx) => {
    // The App's own webhook hears these repositories now; the per-repository hooks of the OAuth grant are gone.
    await movePackagesToConnection(
      tx,
      moving.map((pkg) => pkg.id),
      connection.id,
    );
    await recordAuditEvent(tx, ctx, actor, {
      action: 'package.connection_changed',
      targetType: 'code_host_connection',
      targetId: connection.id,
      details: { packages: moving.map((pkg) => pkg.name), kind: 'github_app' },
    });
  });
  return moving.map((pkg) => pkg.name);
}

/**
 * Deletes the push webhooks the OAuth grant made on the moving packages' repositories, while the grant still works:
 * once it is removed, Packgate could not delete them any more. A hook that cannot be deleted only costs GitHub a
 * refused delivery.
 */
async function removeOAuthWebhooks(
  ctx: AppContext,
  moving: { id: string; repositoryFullName: string; connectionId: string | null; webhookId: string | null }[],
): Promise<void> {
  for (const pkg of moving) {
    if (!pkg.webhookId || !pkg.connectionId) continue;
    try {
      const opened = await openConnection(ctx, pkg.connectionId);
      await opened.host.deletePushWebhook?.(opened.user, pkg.repositoryFullName, pkg.webhookId);
    } catch (error) {
      ctx.log.warn(
        { err: error, packageId: pkg.id },
        'could not remove the OAuth push webhook of a package moving to the GitHub App',
      );
    }
  }
}
