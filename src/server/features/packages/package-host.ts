import { CodeHostError, type CodeHostRepository } from '../../adapters/codehost/code-host.js';
import type { AppContext } from '../../context.js';
import type { packages } from '../../db/schema/index.js';
import { AppError } from '../../http/errors.js';
import {
  adoptLegacyGithubGrant,
  codeHostOf,
  ensureLocalConnection,
  findConnectionsOf,
  getOwnedConnection,
  type OpenedConnection,
  openConnection,
} from '../code-hosts/code-hosts.service.js';
import { withDeployKey } from './git-package-keys.js';

// Which code host and credentials a package's code is read with: its connection (issue 30). A package whose
// connection was removed keeps serving what was published, and says what to do instead of syncing.

type PackageRow = typeof packages.$inferSelect;

export type PackageHost = OpenedConnection & { connectionId: string | null };

/** The host of an existing package, through its connection. */
export async function openPackageHost(
  ctx: AppContext,
  pkg: Pick<PackageRow, 'ownerId' | 'codeHost' | 'connectionId'> &
    Partial<Pick<PackageRow, 'deployKeyPrivateEncrypted' | 'sshHostKey'>>,
): Promise<PackageHost> {
  if (pkg.connectionId) {
    const opened = await openConnection(ctx, pkg.connectionId);
    // A package read over SSH brings its own deploy key and pinned host key (any git server, issue 30 item 4).
    return { host: opened.host, user: withDeployKey(ctx, opened.user, pkg), connectionId: opened.connection.id };
  }
  // The local folder asks for no credential: a package written without a connection still reads it.
  if (pkg.codeHost === 'local')
    return { host: codeHostOf(ctx, 'local'), user: { id: pkg.ownerId }, connectionId: null };
  throw new AppError('CONFLICT', removedConnectionProblem(pkg.codeHost));
}

/** What Management says of a package whose connection was removed. */
export function removedConnectionProblem(codeHost: PackageRow['codeHost']): string {
  const host = codeHost === 'github' ? 'GitHub' : codeHost === 'local' ? 'the local folder' : 'its code host';
  return `The connection this package synced through was removed, so Packgate can no longer read its code; every published version is still served. Connect ${host} again on Code hosts, then add the repository again.`;
}

/**
 * The connection a new package comes through: the one the seller picked, or (older clients that send only a
 * repository id) the server's default host: the local folder, or the first of the seller's GitHub connections that
 * sees the repository.
 */
export async function openHostForNewPackage(
  ctx: AppContext,
  ownerId: string,
  repositoryId: string,
  connectionId: string | undefined,
): Promise<PackageHost & { repository: CodeHostRepository }> {
  if (connectionId) {
    const opened = await openConnection(ctx, await getOwnedConnection(ctx, ownerId, connectionId));
    const repository = await opened.host.getRepository(opened.user, repositoryId);
    return { host: opened.host, user: opened.user, connectionId: opened.connection.id, repository };
  }
  if (ctx.codeHost.kind === 'local') {
    const connection = await ensureLocalConnection(ctx, ownerId);
    const opened = await openConnection(ctx, connection);
    const repository = await opened.host.getRepository(opened.user, repositoryId);
    return { host: opened.host, user: opened.user, connectionId: connection.id, repository };
  }
  await adoptLegacyGithubGrant(ctx, ownerId);
  const candidates = await findConnectionsOf(ctx, ownerId, ['github_app', 'github_oauth']);
  if (candidates.length === 0) throw new CodeHostError('UNAUTHORIZED', 'GitHub is not connected to this account.');
  let refusal: unknown;
  for (const candidate of candidates) {
    try {
      const opened = await openConnection(ctx, candidate);
      const repository = await opened.host.getRepository(opened.user, repositoryId);
      return { host: opened.host, user: opened.user, connectionId: candidate.id, repository };
    } catch (error) {
      // Another connection may see the repository; the last refusal is the answer when none does.
      refusal = error;
    }
  }
  throw refusal;
}
