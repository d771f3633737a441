import { rm } from 'node:fs/promises';
import type { Package, UpdatePackageInput } from '../../../contract/packages.js';
import { GitError } from '../../adapters/git/git-command.js';
import { PrivateAddressError } from '../../adapters/git/remote-address.js';
import type { AppContext } from '../../context.js';
import { isUniqueViolation } from '../../db/pg-errors.js';
import { AppError } from '../../http/errors.js';
import { organizationOf, type Principal } from '../../http/principal.js';
import { recordAuditEvent } from '../shared/audit/audit.service.js';
import { requireActiveAccess } from '../subscriptions/subscriptions.service.js';
import { withCodeHost } from './code-host-access.js';
import { assertNameFree, assertNameMatchesRepository, duplicateNameError } from './package-create.service.js';
import { distPrefixFor } from './package-dists.js';
import { openPackageHost } from './package-host.js';
import { type PackageRow, packageMirrorDir } from './package-mirror.js';
import { type SyncHandle, syncPackage, waitForPackageSync } from './package-sync.js';
import * as repository from './package-sync.repository.js';
import type { NewPackageRow } from './packages.repository.js';
import { countVersions, getOwnedPackage, presentPackage } from './packages.service.js';

// Changing a package after it exists: update (package.updated), delete (package.deleted, with its webhook, mirror
// and zips), refresh, and the admin's clear of every built zip. Each audited change is in its own transaction.

/** How long deleting a package waits for a running sync before removing its files anyway. */
const DELETE_WAIT_FOR_SYNC_MS = 30_000;

/** PUT /api/repositories/{id}: name (checked against composer.json again), description, active switch. */
export async function updatePackage(
  ctx: AppContext,
  actor: Principal,
  packageId: string,
  input: UpdatePackageInput,
): Promise<Package> {
  const user = organizationOf(actor);
  const row = await getOwnedPackage(ctx, user.id, packageId);
  const changes: Partial<NewPackageRow> = {};
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
      const changed = await repository.updateOwnedPackage(tx, user.id, row.id, {
        ...changes,
        updatedAt: now,
        metadataUpdatedAt: now,
      });
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
export async function deletePackage(ctx: AppContext, actor: Principal, packageId: string): Promise<void> {
  const user = organizationOf(actor);
  const row = await getOwnedPackage(ctx, user.id, packageId);
  await ctx.db.transaction(async (tx) => {
    if (!(await repository.deleteOwnedPackage(tx, user.id, row.id)))
      throw new AppError('NOT_FOUND', 'Package not found');
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
export async function refreshPackage(ctx: AppContext, actor: Principal, packageId: string): Promise<SyncHandle> {
  const user = organizationOf(actor);
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
  await repository.forgetAllDists(ctx.db);
  await onRowsForgotten?.();
  return ctx.storage.deletePrefix(ALL_DISTS_PREFIX);
}
