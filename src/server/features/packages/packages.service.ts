import { isEntityId } from '../../../contract/ids.js';
import type { CodeHostRepository, Package, PackageDetail } from '../../../contract/packages.js';
import type { CodeHost, CodeHostUser } from '../../adapters/codehost/code-host.js';
import { CodeHostError } from '../../adapters/codehost/code-host.js';
import type { AppContext } from '../../context.js';
import type { users } from '../../db/schema/index.js';
import { AppError } from '../../http/errors.js';
import { findConnectionsOf, legacyGithubGrantOf, openConnection } from '../code-hosts/code-hosts.service.js';
import { withCodeHost } from './code-host-access.js';
import type { PackageVersionRow } from './package-dists.js';
import { removedConnectionProblem } from './package-host.js';
import type { PackageRow } from './package-mirror.js';
import {
  countPackageVersions,
  findOwnedPackage,
  selectPackagesOfOwnerWithVersionCounts,
  selectPackageVersions,
} from './packages.repository.js';

// The seller's packages, read: which repository each comes from, its Composer name, description and switch, its
// versions, and the repositories the default host offers. Every query is scoped to the owner from the session;
// another seller's package is answered as not found. Creating a package is package-create.service.ts; changing,
// refreshing and deleting one is package-changes.service.ts (each audited in its change's transaction, for every
// door: the dashboard and API v1 call these same commands).

export { ensureDist } from './package-dists.js';
export { reportRefreshedPackage } from './package-refresh.js';
export { type SyncHandle, type SyncOutcome, syncPackage } from './package-sync.js';
export type { PackageRow, PackageVersionRow };

/**
 * What the packages domain reads of the organisation's account row (its plan, its code-host token): data, not who
 * acts; a channel passes `organizationOf(principal)` (http/principal.ts).
 */
export type PackageAccount = Pick<
  typeof users.$inferSelect,
  'id' | 'userType' | 'selectedTier' | 'githubAccessTokenEncrypted'
>;

/** `connectionProblem`: why the package's connection does not work, when it is broken (shown as its access problem). */
export function presentPackage(row: PackageRow, versionCount: number, connectionProblem?: string | null): Package {
  return {
    id: row.id,
    packageName: row.name,
    description: row.description,
    isActive: row.isActive,
    fullName: row.repositoryFullName,
    githubRepoId: row.repositoryId,
    codeHost: row.codeHost,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    syncStatus: row.syncStatus,
    syncError: row.syncError,
    lastSyncedAt: row.lastSyncedAt?.toISOString() ?? null,
    metadataUpdatedAt: row.metadataUpdatedAt.toISOString(),
    versionCount,
    skippedReferences: row.skippedReferences,
    hasWebhook: row.webhookId !== null,
    connectionId: row.connectionId,
    repositoryUrl: row.repositoryUrl,
    deployKey: row.deployKeyPublic,
    sshHostKeyFingerprint: row.sshHostKeyFingerprint,
    lastReconciledAt: row.lastReconciledAt?.toISOString() ?? null,
    accessProblem:
      row.accessProblem ??
      connectionProblem ??
      (row.connectionId === null && row.codeHost !== 'local' ? removedConnectionProblem(row.codeHost) : null),
  };
}

export async function countVersions(ctx: AppContext, packageId: string): Promise<number> {
  return countPackageVersions(ctx.db, packageId);
}

/** The owner's packages, newest first, with their version counts. */
export async function listPackagesForOwner(ctx: AppContext, ownerId: string): Promise<Package[]> {
  const rows = await selectPackagesOfOwnerWithVersionCounts(ctx.db, ownerId);
  const problems = await connectionProblemsOf(ctx, ownerId);
  return rows.map((row) =>
    presentPackage(row.pkg, row.versionCount, row.pkg.connectionId ? problems.get(row.pkg.connectionId) : null),
  );
}

/** The problems of the owner's broken connections, by connection id. */
async function connectionProblemsOf(ctx: AppContext, ownerId: string): Promise<Map<string, string>> {
  const connections = await findConnectionsOf(ctx, ownerId);
  return new Map(
    connections.flatMap((connection) =>
      connection.status === 'broken' && connection.problem ? [[connection.id, connection.problem] as const] : [],
    ),
  );
}

/**
 * The owner's package row; NOT_FOUND (never FORBIDDEN) for an unknown id and for another seller's package alike.
 * The one check of package ownership: licenses, sales and the API call it.
 */
export async function getOwnedPackage(
  ctx: Pick<AppContext, 'db'>,
  ownerId: string,
  packageId: string,
): Promise<PackageRow> {
  const row = await findOwnedPackageRow(ctx, ownerId, packageId);
  if (!row) throw new AppError('NOT_FOUND', 'Package not found');
  return row;
}

/** The owner's package row, or undefined for an unknown or malformed id and for another seller's package alike. */
export async function findOwnedPackageRow(
  ctx: Pick<AppContext, 'db'>,
  ownerId: string,
  packageId: string,
): Promise<PackageRow | undefined> {
  // The column is a uuid: anything else cannot be a package, and must not reach PostgreSQL as one.
  return isEntityId(packageId) ? findOwnedPackage(ctx.db, ownerId, packageId) : undefined;
}

/** The package's published versions, tags newest release first, then branches by name. */
export async function listPackageVersions(ctx: AppContext, packageId: string): Promise<PackageVersionRow[]> {
  return selectPackageVersions(ctx.db, packageId);
}

export async function getPackageDetail(ctx: AppContext, ownerId: string, packageId: string): Promise<PackageDetail> {
  const row = await getOwnedPackage(ctx, ownerId, packageId);
  const versions = await listPackageVersions(ctx, packageId);
  const problems = row.connectionId ? await connectionProblemsOf(ctx, ownerId) : new Map<string, string>();
  return {
    ...presentPackage(row, versions.length, row.connectionId ? problems.get(row.connectionId) : null),
    versions: versions.map((version) => ({
      version: version.version,
      normalizedVersion: version.normalizedVersion,
      kind: version.kind,
      reference: version.reference,
      commit: version.commit,
      releasedAt: version.releasedAt.toISOString(),
      isCached: version.distKey !== null && version.distSha1 !== null,
      distSha1: version.distSha1,
      distSize: version.distSize,
    })),
  };
}

/**
 * GET /api/github/repositories: what the seller may turn into packages from the server's default host (the local
 * folder, or the seller's GitHub connection). Add Package reads every connection's through /api/code-hosts.
 */
export async function listCodeHostRepositories(ctx: AppContext, user: PackageAccount): Promise<CodeHostRepository[]> {
  const repositories = await withCodeHost(ctx, async () => {
    const { host, user: hostUser } = await openDefaultHost(ctx, user.id);
    return host.listRepositories(hostUser);
  });
  return repositories.map((repository) => ({
    githubId: repository.id,
    fullName: repository.fullName,
    description: repository.description,
    hasComposerJson: repository.hasComposerJson,
    composerName: repository.composerName,
  }));
}

/** The default host's listing for a seller (reads only: nothing is stored until a package is added). */
async function openDefaultHost(ctx: AppContext, ownerId: string): Promise<{ host: CodeHost; user: CodeHostUser }> {
  if (ctx.codeHost.kind === 'local') return { host: ctx.codeHost, user: { id: ownerId } };
  const [github] = await findConnectionsOf(ctx, ownerId, ['github_oauth', 'github_app']);
  if (github) return openConnection(ctx, github);
  const grant = await legacyGithubGrantOf(ctx, ownerId);
  if (!grant) throw new CodeHostError('UNAUTHORIZED', 'GitHub is not connected to this account.');
  const now = ctx.clock.now();
  return openConnection(ctx, {
    id: '',
    status: 'active',
    problem: null,
    problemSince: null,
    problemNotifiedAt: null,
    createdAt: now,
    updatedAt: now,
    baseUrl: null,
    externalId: null,
    username: null,
    refreshTokenEncrypted: null,
    tokenExpiresAt: null,
    webhookSecretEncrypted: null,
    createdById: null,
    accountName: grant.accountName ?? null,
    scopes: grant.scopes ?? null,
    ...grant,
  });
}
