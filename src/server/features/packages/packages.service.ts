import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { and, asc, count, desc, eq, isNotNull, sql } from 'drizzle-orm';
import { isEntityId } from '../../../contract/ids.js';
import type {
  CodeHostRepository,
  CreatePackageResponse,
  Package,
  PackageDetail,
  UpdatePackageInput,
} from '../../../contract/packages.js';
import type {
  CodeHost,
  CodeHostUser,
  CodeHostRepository as HostRepository,
} from '../../adapters/codehost/code-host.js';
import { CodeHostError } from '../../adapters/codehost/code-host.js';
import { GitError } from '../../adapters/git/git-command.js';
import { PrivateAddressError } from '../../adapters/git/remote-address.js';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { isUniqueViolation } from '../../db/pg-errors.js';
import { packages, packageVersions, type users } from '../../db/schema/index.js';
import { AppError } from '../../http/errors.js';
import { appUrl } from '../../http/public-urls.js';
import { encryptSecret } from '../../lib/crypto.js';
import { findConnectionsOf, legacyGithubGrantOf, openConnection } from '../code-hosts/code-hosts.service.js';
import { type Actor, recordAuditEvent } from '../shared/audit/audit.service.js';
import { findPlanLimits, requireActiveAccess } from '../subscriptions/subscriptions.service.js';
import { withCodeHost } from './code-host-access.js';
import { webhookPathFor } from './code-host-webhooks.service.js';
import { distPrefixFor, type PackageVersionRow } from './package-dists.js';
import { openHostForNewPackage, openPackageHost, removedConnectionProblem } from './package-host.js';
import { type PackageRow, packageMirrorDir } from './package-mirror.js';
import { type SyncHandle, syncPackage, waitForPackageSync } from './package-sync.js';
import { manifestName } from './package-versions.js';
import { findOwnedPackage } from './packages.repository.js';

// The seller's packages: which repository each comes from, its Composer name, description and switch.
// Every query is scoped to the owner from the session; another seller's package is answered as not found.
// Creating, changing and deleting a package are audited here (package.created, .updated, .deleted), in the
// change's transaction, for every door: the dashboard and API v1 call these same commands.

export { ensureDist } from './package-dists.js';
export { reportRefreshedPackage } from './package-refresh.js';
export { type SyncHandle, type SyncOutcome, syncPackage } from './package-sync.js';
export type { PackageRow, PackageVersionRow };

/** What the packages domain needs of the signed-in user. */
export type PackageOwner = Pick<
  typeof users.$inferSelect,
  'id' | 'userType' | 'selectedTier' | 'githubAccessTokenEncrypted'
>;

export type CreatePackageValues = {
  githubRepoId: string;
  /** The code-host connection the repository is read through; the server's default host when left out. */
  connectionId?: string;
  packageName: string;
  description: string | null;
  isActive: boolean;
};

/** How long deleting a package waits for a running sync before removing its files anyway. */
const DELETE_WAIT_FOR_SYNC_MS = 30_000;

export function duplicateNameError(name: string): AppError {
  return new AppError('ALREADY_EXISTS', `You already have a package named ${name}.`, {
    title: 'Package Already Exists',
    suggestion: 'Choose another package name, or edit the existing package.',
  });
}

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

async function countVersions(ctx: AppContext, packageId: string): Promise<number> {
  const [row] = await ctx.db
    .select({ total: count() })
    .from(packageVersions)
    .where(eq(packageVersions.packageId, packageId));
  return row?.total ?? 0;
}

/** The owner's packages, newest first, with their version counts. */
export async function listPackagesForOwner(ctx: AppContext, ownerId: string): Promise<Package[]> {
  const rows = await ctx.db
    .select({ pkg: packages, versionCount: count(packageVersions.id) })
    .from(packages)
    .leftJoin(packageVersions, eq(packageVersions.packageId, packages.id))
    .where(eq(packages.ownerId, ownerId))
    .groupBy(packages.id)
    .orderBy(desc(packages.createdAt), desc(packages.id));
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
  // The column is a uuid: anything else cannot be a package, and must not reach PostgreSQL as one.
  const row = isEntityId(packageId) ? await findOwnedPackage(ctx.db, ownerId, packageId) : undefined;
  if (!row) throw new AppError('NOT_FOUND', 'Package not found');
  return row;
}

/** The package's published versions, tags newest release first, then branches by name. */
export async function listPackageVersions(ctx: AppContext, packageId: string): Promise<PackageVersionRow[]> {
  return ctx.db
    .select()
    .from(packageVersions)
    .where(eq(packageVersions.packageId, packageId))
    .orderBy(asc(packageVersions.kind), desc(packageVersions.releasedAt), asc(packageVersions.version));
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
export async function listCodeHostRepositories(ctx: AppContext, user: PackageOwner): Promise<CodeHostRepository[]> {
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

export type PackageLimit = { tierName: string; maxPackages: number };

/** The plan's package limit for this owner, or undefined when there is none (admins, unlimited tiers). */
export async function findPackageLimit(ctx: AppContext, user: PackageOwner): Promise<PackageLimit | undefined> {
  const limits = await findPlanLimits(ctx, user);
  if (!limits || limits.maxPackages === null) return undefined;
  return { tierName: limits.tierName, maxPackages: limits.maxPackages };
}

/** Refuses a package beyond the plan's maxPackages; `db` may be the transaction that inserts it. */
export async function assertWithinPackageLimit(db: Database, ownerId: string, limit: PackageLimit): Promise<void> {
  const [owned] = await db.select({ total: count() }).from(packages).where(eq(packages.ownerId, ownerId));
  if ((owned?.total ?? 0) >= limit.maxPackages) {
    throw new AppError(
      'FORBIDDEN',
      `Your ${limit.tierName} plan allows ${limit.maxPackages} package${limit.maxPackages === 1 ? '' : 's'}.`,
      { title: 'Package Limit Reached', suggestion: 'Delete a package or change to a larger plan.' },
    );
  }
}

/**
 * Composer takes a package's name from its repository's composer.json: a package published under another
 * name would not match what Composer reads, so the name must agree (or composer.json must have none).
 */
async function assertNameMatchesRepository(
  ctx: AppContext,
  host: CodeHost,
  codeHostUser: CodeHostUser,
  repository: HostRepository,
  packageName: string,
): Promise<void> {
  const branch = repository.defaultBranch ? ` on ${repository.defaultBranch}` : '';
  const text = await withCodeHost(ctx, () => host.readDefaultBranchFile(codeHostUser, repository, 'composer.json'));
  if (text === undefined) {
    throw new AppError('BAD_REQUEST', `${repository.fullName} has no composer.json${branch}.`, {
      title: 'No composer.json',
      suggestion: 'Only repositories with a composer.json at the root of their default branch can become packages.',
    });
  }
  const named = manifestName(text);
  if ('problem' in named) {
    throw new AppError(
      'BAD_REQUEST',
      `The composer.json of ${repository.fullName}${branch} is unusable: ${named.problem}.`,
      {
        title: 'Invalid composer.json',
        suggestion: 'Fix composer.json in the repository, then try again.',
      },
    );
  }
  if (named.name !== undefined && named.name !== packageName) {
    throw new AppError(
      'BAD_REQUEST',
      `The composer.json of ${repository.fullName} names the package "${named.name}", not "${packageName}"; Composer would refuse the mismatch.`,
      {
        title: 'Package Name Mismatch',
        suggestion: `Use "${named.name}" as the package name, or change the name in composer.json first.`,
      },
    );
  }
}

export async function assertNameFree(ctx: AppContext, ownerId: string, name: string, exceptId?: string): Promise<void> {
  const [taken] = await ctx.db
    .select({ id: packages.id })
    .from(packages)
    .where(and(eq(packages.ownerId, ownerId), eq(packages.name, name)))
    .limit(1);
  if (taken && taken.id !== exceptId) throw duplicateNameError(name);
}

/** Creates the package from a code-host repository and starts its first sync. */
export async function createPackage(
  ctx: AppContext,
  user: PackageOwner,
  actor: Actor,
  input: CreatePackageValues,
): Promise<CreatePackageResponse> {
  await requireActiveAccess(ctx, user);
  const limit = await findPackageLimit(ctx, user);
  // Checked early so that a seller at the limit is told before any code-host call; checked again below.
  if (limit) await assertWithinPackageLimit(ctx.db, user.id, limit);
  await assertNameFree(ctx, user.id, input.packageName);

  const opened = await withCodeHost(ctx, () =>
    openHostForNewPackage(ctx, user.id, input.githubRepoId, input.connectionId),
  );
  const { host, repository } = opened;
  const codeHostUser = opened.user;
  const [existing] = await ctx.db
    .select({ name: packages.name })
    .from(packages)
    .where(
      and(eq(packages.ownerId, user.id), eq(packages.codeHost, host.kind), eq(packages.repositoryId, repository.id)),
    )
    .limit(1);
  if (existing) {
    throw new AppError('ALREADY_EXISTS', `${repository.fullName} is already your package ${existing.name}.`, {
      title: 'Repository Already Added',
      suggestion: 'Edit or refresh the existing package instead.',
    });
  }
  await assertNameMatchesRepository(ctx, host, codeHostUser, repository, input.packageName);

  // The secret is stored before the hook exists: GitHub sends a signed ping as soon as it is created.
  const webhookSecret = host.createPushWebhook ? randomBytes(32).toString('hex') : undefined;
  const now = ctx.clock.now();
  let row: PackageRow;
  try {
    [row] = (await ctx.db.transaction(async (tx) => {
      if (limit) {
        // Two creations at the limit must not both pass the count: the second waits for the first's insert.
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`package-limit:${user.id}`}))`);
        await assertWithinPackageLimit(tx, user.id, limit);
      }
      const inserted = await tx
        .insert(packages)
        .values({
          ownerId: user.id,
          codeHost: host.kind,
          connectionId: opened.connectionId,
          repositoryId: repository.id,
          repositoryFullName: repository.fullName,
          name: input.packageName,
          description: input.description ?? repository.description,
          isActive: input.isActive,
          webhookSecretEncrypted: webhookSecret ? encryptSecret(ctx.config.secretKey, webhookSecret) : null,
          createdAt: now,
          updatedAt: now,
          metadataUpdatedAt: now,
        })
        .returning();
      const created = inserted[0]!;
      await recordAuditEvent(tx, ctx, actor, {
        action: 'package.created',
        targetType: 'package',
        targetId: created.id,
        details: { name: created.name, repository: created.repositoryFullName },
      });
      return inserted;
    })) as [PackageRow];
  } catch (error) {
    if (isUniqueViolation(error, 'packages_owner_name_unique')) throw duplicateNameError(input.packageName);
    throw error;
  }
  if (webhookSecret) row = await registerWebhook(ctx, host, codeHostUser, repository, row, webhookSecret);

  const sync = await syncPackage(ctx, row.id, { userId: user.id });
  return { ...presentPackage(row, 0), taskId: sync.taskId };
}

/** Asks the code host for a push webhook; a refusal (no admin right on the repository) only costs automation. */
async function registerWebhook(
  ctx: AppContext,
  host: CodeHost,
  codeHostUser: CodeHostUser,
  repository: HostRepository,
  row: PackageRow,
  secret: string,
): Promise<PackageRow> {
  try {
    const hook = await host.createPushWebhook!(codeHostUser, repository, {
      url: appUrl(ctx.config, webhookPathFor(host.kind)),
      secret,
    });
    const [updated] = await ctx.db
      .update(packages)
      .set({ webhookId: hook.id })
      .where(eq(packages.id, row.id))
      .returning();
    return updated ?? row;
  } catch (error) {
    ctx.log.warn(
      { err: error, packageId: row.id, repository: repository.fullName },
      'push webhook not registered; the seller refreshes by hand',
    );
    const [updated] = await ctx.db
      .update(packages)
      .set({ webhookSecretEncrypted: null })
      .where(eq(packages.id, row.id))
      .returning();
    return updated ?? row;
  }
}

/** PUT /api/repositories/{id}: name (checked against composer.json again), description, active switch. */
export async function updatePackage(
  ctx: AppContext,
  user: PackageOwner,
  actor: Actor,
  packageId: string,
  input: UpdatePackageInput,
): Promise<Package> {
  const row = await getOwnedPackage(ctx, user.id, packageId);
  const changes: Partial<typeof packages.$inferInsert> = {};
  if (input.packageName !== undefined && input.packageName !== row.name) {
    await assertNameFree(ctx, user.id, input.packageName, row.id);
    // A package whose host cannot be reached (connection removed, host no longer configured) keeps its check for
    // the next sync, which reads composer.json again.
    const opened = await openPackageHost(ctx, row).catch(() => undefined);
    if (opened) {
      try {
        const repository = await withCodeHost(ctx, () => opened.host.getRepository(opened.user, row.repositoryId));
        await assertNameMatchesRepository(ctx, opened.host, opened.user, repository, input.packageName);
      } catch (error) {
        // A git server that cannot be read now (a deploy key not yet added): the next sync checks the name.
        if (!(error instanceof GitError || error instanceof PrivateAddressError)) throw error;
      }
    }
    changes.name = input.packageName;
  }
  if (input.description !== undefined && input.description !== row.description) changes.description = input.description;
  if (input.isActive !== undefined && input.isActive !== row.isActive) changes.isActive = input.isActive;
  if (Object.keys(changes).length === 0) return presentPackage(row, await countVersions(ctx, row.id));

  const now = ctx.clock.now();
  let updated: PackageRow | undefined;
  try {
    updated = await ctx.db.transaction(async (tx) => {
      // Name and switch decide what Composer is served: the metadata's Last-Modified moves with them.
      const [changed] = await tx
        .update(packages)
        .set({ ...changes, updatedAt: now, metadataUpdatedAt: now })
        .where(and(eq(packages.id, row.id), eq(packages.ownerId, user.id)))
        .returning();
      if (!changed) return undefined;
      await recordAuditEvent(tx, ctx, actor, {
        action: 'package.updated',
        targetType: 'package',
        targetId: changed.id,
        // Named as the request names them.
        details: { changed: Object.keys(changes).map((key) => (key === 'name' ? 'packageName' : key)) },
      });
      return changed;
    });
  } catch (error) {
    if (isUniqueViolation(error, 'packages_owner_name_unique') && changes.name) throw duplicateNameError(changes.name);
    throw error;
  }
  if (!updated) throw new AppError('NOT_FOUND', 'Package not found');
  return presentPackage(updated, await countVersions(ctx, updated.id));
}

/** Deletes the package (its versions and licenses go with it), its webhook, mirror and zips. */
export async function deletePackage(
  ctx: AppContext,
  user: PackageOwner,
  actor: Actor,
  packageId: string,
): Promise<void> {
  const row = await getOwnedPackage(ctx, user.id, packageId);
  await ctx.db.transaction(async (tx) => {
    const [deleted] = await tx
      .delete(packages)
      .where(and(eq(packages.id, row.id), eq(packages.ownerId, user.id)))
      .returning({ id: packages.id });
    if (!deleted) throw new AppError('NOT_FOUND', 'Package not found');
    await recordAuditEvent(tx, ctx, actor, {
      action: 'package.deleted',
      targetType: 'package',
      targetId: row.id,
      details: { name: row.name },
    });
  });

  if (row.webhookId) {
    const opened = await openPackageHost(ctx, row).catch(() => undefined);
    await opened?.host.deletePushWebhook?.(opened.user, row.repositoryFullName, row.webhookId).catch((error) => {
      ctx.log.warn({ err: error, packageId: row.id }, 'could not remove the push webhook of a deleted package');
    });
  }
  // A running sync would write the mirror and zips again behind our back.
  await waitForPackageSync(ctx, row.id, DELETE_WAIT_FOR_SYNC_MS);
  await rm(packageMirrorDir(ctx, row.id), { recursive: true, force: true }).catch((error) => {
    ctx.log.warn({ err: error, packageId: row.id }, 'could not remove the mirror of a deleted package');
  });
  await ctx.storage.deletePrefix(distPrefixFor(row.id)).catch((error) => {
    ctx.log.warn({ err: error, packageId: row.id }, 'could not remove the zips of a deleted package');
  });
}

/** POST /api/repositories/{id}/refresh: a new sync from the code host. */
export async function refreshPackage(ctx: AppContext, user: PackageOwner, packageId: string): Promise<SyncHandle> {
  const row = await getOwnedPackage(ctx, user.id, packageId);
  await requireActiveAccess(ctx, user);
  return syncPackage(ctx, row.id, { userId: user.id });
}

/** Every package's zips sit under this prefix (package-dists.ts: `dists/{packageId}/{commit}.zip`). */
const ALL_DISTS_PREFIX = 'dists/';

/**
 * Deletes every built zip (the admin's cache clear) and answers how many storage deleted. Version rows forget their
 * zip first, then storage is emptied: a download in between finds no zip behind its row (ensureDist checks storage)
 * and builds it. `onRowsForgotten` reports the halfway point.
 */
export async function clearAllDists(ctx: AppContext, onRowsForgotten?: () => Promise<void>): Promise<number> {
  await ctx.db
    .update(packageVersions)
    .set({ distKey: null, distSha1: null, distSize: null, distBuiltAt: null })
    .where(isNotNull(packageVersions.distKey));
  await onRowsForgotten?.();
  return ctx.storage.deletePrefix(ALL_DISTS_PREFIX);
}
