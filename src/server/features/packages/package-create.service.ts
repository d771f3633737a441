import { randomBytes } from 'node:crypto';
import type { CreatePackageResponse } from '../../../contract/packages.js';
import type {
  CodeHost,
  CodeHostUser,
  CodeHostRepository as HostRepository,
} from '../../adapters/codehost/code-host.js';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { isUniqueViolation } from '../../db/pg-errors.js';
import { AppError } from '../../http/errors.js';
import { organizationOf, type Principal } from '../../http/principal.js';
import { appUrl } from '../../http/public-urls.js';
import { encryptSecret } from '../../lib/crypto.js';
import { recordAuditEvent } from '../shared/audit/audit.service.js';
import { findPlanLimits, requireActiveAccess } from '../subscriptions/subscriptions.service.js';
import { withCodeHost } from './code-host-access.js';
import { webhookPathFor } from './code-host-webhooks.service.js';
import { openHostForNewPackage } from './package-host.js';
import type { PackageRow } from './package-mirror.js';
import { syncPackage } from './package-sync.js';
import { requireManifestName } from './package-versions.js';
import {
  countPackagesOfOwner,
  findPackageIdByName,
  findPackageNameOfRepository,
  insertPackageRow,
  lockPackageLimitOf,
  type NewPackageRow,
  updatePackageRow,
} from './packages.repository.js';
import { type PackageAccount, presentPackage } from './packages.service.js';

// Creating a package from a code-host repository: the plan's package limit, the name checks (free, and agreeing
// with the repository's composer.json), the audited insert (package.created) and the push webhook.

export type CreatePackageValues = {
  githubRepoId: string;
  /** The code-host connection the repository is read through; the server's default host when left out. */
  connectionId?: string;
  packageName: string;
  description: string | null;
  isActive: boolean;
};

export function duplicateNameError(name: string): AppError {
  return new AppError('ALREADY_EXISTS', `You already have a package named ${name}.`, {
    title: 'Package Already Exists',
    suggestion: 'Choose another package name, or edit the existing package.',
  });
}

export type PackageLimit = { tierName: string; maxPackages: number };

/** The plan's package limit for this owner, or undefined when there is none (admins, unlimited tiers). */
export async function findPackageLimit(ctx: AppContext, user: PackageAccount): Promise<PackageLimit | undefined> {
  const limits = await findPlanLimits(ctx, user);
  if (!limits || limits.maxPackages === null) return undefined;
  return { tierName: limits.tierName, maxPackages: limits.maxPackages };
}

/** Refuses a package beyond the plan's maxPackages; `db` may be the transaction that inserts it. */
export async function assertWithinPackageLimit(db: Database, ownerId: string, limit: PackageLimit): Promise<void> {
  if ((await countPackagesOfOwner(db, ownerId)) >= limit.maxPackages) {
    throw new AppError(
      'FORBIDDEN',
      `Your ${limit.tierName} plan allows ${limit.maxPackages} package${limit.maxPackages === 1 ? '' : 's'}.`,
      { title: 'Package Limit Reached', suggestion: 'Delete a package or change to a larger plan.' },
    );
  }
}

/**
 * Refuses a new package to a seller without active access, or already at the plan's package limit: checked before
 * any code-host call so that the seller is told first; answers the limit, which the insert checks again.
 */
export async function checkRoomForNewPackage(
  ctx: AppContext,
  owner: PackageAccount,
): Promise<PackageLimit | undefined> {
  await requireActiveAccess(ctx, owner);
  const limit = await findPackageLimit(ctx, owner);
  if (limit) await assertWithinPackageLimit(ctx.db, owner.id, limit);
  return limit;
}

/** Refuses a repository the seller already has as a package; `label` names it as the seller gave it. */
export async function assertRepositoryNotAdded(
  ctx: AppContext,
  ownerId: string,
  repository: { codeHost: PackageRow['codeHost']; id: string; label: string },
): Promise<void> {
  const existingName = await findPackageNameOfRepository(ctx.db, ownerId, repository.codeHost, repository.id);
  if (existingName !== undefined) {
    throw new AppError('ALREADY_EXISTS', `${repository.label} is already your package ${existingName}.`, {
      title: 'Repository Already Added',
      suggestion: 'Edit or refresh the existing package instead.',
    });
  }
}

/**
 * Inserts a new package and its `package.created` audit event in one transaction, within the plan's limit: two
 * creations at the limit must not both pass the count, so the second waits for the first's insert. A name taken
 * meanwhile is refused in words.
 */
export async function insertPackageAudited(
  ctx: AppContext,
  actor: Principal,
  limit: PackageLimit | undefined,
  values: NewPackageRow,
): Promise<PackageRow> {
  try {
    return await ctx.db.transaction(async (tx) => {
      if (limit) {
        await lockPackageLimitOf(tx, values.ownerId);
        await assertWithinPackageLimit(tx, values.ownerId, limit);
      }
      const created = await insertPackageRow(tx, values);
      await recordAuditEvent(tx, ctx, actor, {
        action: 'package.created',
        targetType: 'package',
        targetId: created.id,
        details: { name: created.name, repository: created.repositoryFullName },
      });
      return created;
    });
  } catch (error) {
    if (isUniqueViolation(error, 'packages_owner_name_unique')) throw duplicateNameError(values.name);
    throw error;
  }
}

/**
 * Composer takes a package's name from its repository's composer.json: a package published under another
 * name would not match what Composer reads, so the name must agree (or composer.json must have none).
 */
export async function assertNameMatchesRepository(
  ctx: AppContext,
  host: CodeHost,
  codeHostUser: CodeHostUser,
  repository: HostRepository,
  packageName: string,
): Promise<void> {
  const branch = repository.defaultBranch ? ` on ${repository.defaultBranch}` : '';
  const text = await withCodeHost(ctx, () => host.readDefaultBranchFile(codeHostUser, repository, 'composer.json'));
  const declared = requireManifestName(text, {
    missing: `${repository.fullName} has no composer.json${branch}.`,
    unusable: (problem) => `The composer.json of ${repository.fullName}${branch} is unusable: ${problem}.`,
  });
  if (declared !== undefined && declared !== packageName) {
    throw new AppError(
      'BAD_REQUEST',
      `The composer.json of ${repository.fullName} names the package "${declared}", not "${packageName}"; Composer would refuse the mismatch.`,
      {
        title: 'Package Name Mismatch',
        suggestion: `Use "${declared}" as the package name, or change the name in composer.json first.`,
      },
    );
  }
}

export async function assertNameFree(ctx: AppContext, ownerId: string, name: string, exceptId?: string): Promise<void> {
  const takenId = await findPackageIdByName(ctx.db, ownerId, name);
  if (takenId !== undefined && takenId !== exceptId) throw duplicateNameError(name);
}

/** Creates the package from a code-host repository and starts its first sync. */
export async function createPackage(
  ctx: AppContext,
  actor: Principal,
  input: CreatePackageValues,
): Promise<CreatePackageResponse> {
  const user = organizationOf(actor);
  const limit = await checkRoomForNewPackage(ctx, user);
  await assertNameFree(ctx, user.id, input.packageName);

  const opened = await withCodeHost(ctx, () =>
    openHostForNewPackage(ctx, user.id, input.githubRepoId, input.connectionId),
  );
  const { host, repository } = opened;
  const codeHostUser = opened.user;
  await assertRepositoryNotAdded(ctx, user.id, { codeHost: host.kind, id: repository.id, label: repository.fullName });
  await assertNameMatchesRepository(ctx, host, codeHostUser, repository, input.packageName);

  // The secret is stored before the hook exists: GitHub sends a signed ping as soon as it is created.
  const webhookSecret = host.createPushWebhook ? randomBytes(32).toString('hex') : undefined;
  const now = ctx.clock.now();
  let row = await insertPackageAudited(ctx, actor, limit, {
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
  });
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
    return (await updatePackageRow(ctx.db, row.id, { webhookId: hook.id })) ?? row;
  } catch (error) {
    ctx.log.warn(
      { err: error, packageId: row.id, repository: repository.fullName },
      'push webhook not registered; the seller refreshes by hand',
    );
    return (await updatePackageRow(ctx.db, row.id, { webhookSecretEncrypted: null })) ?? row;
  }
}
