import { and, eq, inArray } from 'drizzle-orm';
import { listReferences, readFilesAt } from '../../adapters/git/git-repository.js';
import type { AppContext } from '../../context.js';
import { packages, packageVersions, tasks } from '../../db/schema/index.js';
import { AppError } from '../../http/errors.js';
import { type RunningTask, startTask } from '../tasks/tasks.service.js';
import { describeSyncFailure } from './code-host-access.js';
import { deleteUnusedDists, type PackageVersionRow, preCachePackage } from './package-dists.js';
import { type PackageRow, packageMirrorDir, updatePackageMirror } from './package-mirror.js';
import { type ComputedVersion, planVersions } from './package-versions.js';

// A package sync, run in this process in the background: the `github-sync` task brings the mirror up to
// date and publishes the versions Composer would read from it, then the `package-pre-cache` task builds the
// missing zips. One sync per package at a time: a request arriving while one runs is queued behind it, and
// requests arriving while one is queued join that one (a burst of pushes costs at most one extra sync).
// Across processes syncs of one package may overlap; every write is an idempotent upsert of the same
// result, so they converge.

export type SyncOutcome = {
  packageId: string;
  status: 'ready' | 'failed';
  /** Why the sync failed, in words for the seller. */
  error?: string;
  /** Whether the published versions changed (metadataUpdatedAt moved). */
  changed: boolean;
  versionCount: number;
  skippedCount: number;
  preCacheTaskId?: string;
};

/** `done` settles once both tasks are over; it never rejects (failures are in the outcome, the task and the package). */
export type SyncHandle = { taskId: string; done: Promise<SyncOutcome> };

type Slot = { tail: Promise<unknown>; isRunning: boolean; queued?: Promise<SyncHandle> };

const slotsByContext = new WeakMap<AppContext, Map<string, Slot>>();

function slotsFor(ctx: AppContext): Map<string, Slot> {
  let slots = slotsByContext.get(ctx);
  if (!slots) {
    slots = new Map();
    slotsByContext.set(ctx, slots);
  }
  return slots;
}

/**
 * Starts (or queues) a sync of the package from its code host; progress goes to `userId`'s sockets.
 * The caller has already checked that the user may do this (tenancy is the service's business).
 */
export async function syncPackage(
  ctx: AppContext,
  packageId: string,
  options: { userId: string },
): Promise<SyncHandle> {
  const slots = slotsFor(ctx);
  let slot = slots.get(packageId);
  if (slot?.queued) return slot.queued;
  if (!slot) {
    slot = { tail: Promise.resolve(), isRunning: false };
    slots.set(packageId, slot);
  }
  const current = slot;
  const queued = (async (): Promise<SyncHandle> => {
    const [pkg] = await ctx.db
      .select({ name: packages.name })
      .from(packages)
      .where(eq(packages.id, packageId))
      .limit(1);
    if (!pkg) throw new AppError('NOT_FOUND', 'Package not found');
    const task = await startTask(ctx, {
      userId: options.userId,
      type: 'github-sync',
      message: current.isRunning ? `Waiting for the running sync of ${pkg.name}` : `Syncing ${pkg.name}`,
      // The screens name the sync after the code host that runs it.
      data: { packageId, packageName: pkg.name, codeHost: ctx.codeHost.kind },
    });
    const done = current.tail.then(() => {
      // From here on a new request queues behind this sync instead of joining it.
      if (current.queued === queued) current.queued = undefined;
      current.isRunning = true;
      return runSync(ctx, packageId, task, options.userId);
    });
    const tail: Promise<unknown> = done.finally(() => {
      current.isRunning = false;
      if (slots.get(packageId) === current && !current.queued && current.tail === tail) slots.delete(packageId);
    });
    current.tail = tail;
    return { taskId: task.id, done };
  })();
  current.queued = queued;
  queued.catch(() => {
    if (current.queued === queued) current.queued = undefined;
  });
  return queued;
}

/** Waits for this app's running and queued syncs (on shutdown), at most `timeoutMs`. */
export async function waitForPackageSyncs(ctx: AppContext, timeoutMs: number): Promise<void> {
  const slots = slotsByContext.get(ctx);
  if (!slots || slots.size === 0) return;
  const everything = Promise.allSettled([...slots.values()].flatMap((slot) => [slot.tail, slot.queued]));
  await Promise.race([everything, new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
}

/** Waits for the package's running and queued syncs, e.g. before deleting its files. */
export async function waitForPackageSync(ctx: AppContext, packageId: string, timeoutMs: number): Promise<void> {
  const slot = slotsByContext.get(ctx)?.get(packageId);
  if (!slot) return;
  const handle = await slot.queued?.catch(() => undefined);
  const settled = Promise.allSettled([slot.tail, handle?.done]);
  await Promise.race([settled, new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
}

export const INTERRUPTED_SYNC_MESSAGE =
  'The sync was interrupted by a server restart. Refresh the package to sync it again.';

/**
 * At start-up: syncs are in-process, so a package left `syncing` (and its task left running) by a stopped
 * process would wait forever. They are marked failed so that the seller can refresh. Another process's sync
 * that is still running simply overwrites this when it finishes.
 */
export async function recoverInterruptedSyncs(ctx: AppContext): Promise<void> {
  const now = ctx.clock.now();
  const recovered = await ctx.db
    .update(packages)
    .set({ syncStatus: 'failed', syncError: INTERRUPTED_SYNC_MESSAGE })
    .where(eq(packages.syncStatus, 'syncing'))
    .returning({ id: packages.id });
  await ctx.db
    .update(tasks)
    .set({ status: 'failed', message: INTERRUPTED_SYNC_MESSAGE, updatedAt: now })
    .where(
      and(inArray(tasks.status, ['started', 'progress']), inArray(tasks.type, ['github-sync', 'package-pre-cache'])),
    );
  if (recovered.length > 0) ctx.log.warn({ packages: recovered.length }, 'marked interrupted package syncs as failed');
}

async function findPackage(ctx: AppContext, packageId: string): Promise<PackageRow | undefined> {
  const [pkg] = await ctx.db.select().from(packages).where(eq(packages.id, packageId)).limit(1);
  return pkg;
}

async function runSync(ctx: AppContext, packageId: string, task: RunningTask, userId: string): Promise<SyncOutcome> {
  const failed = (error: string): SyncOutcome => ({
    packageId,
    status: 'failed',
    error,
    changed: false,
    versionCount: 0,
    skippedCount: 0,
  });
  const pkg = await findPackage(ctx, packageId).catch(() => undefined);
  if (!pkg) {
    await task.fail('The package was deleted before it could be synced.');
    return failed('The package was deleted.');
  }

  let published: { changed: boolean; versionCount: number; skippedCount: number };
  try {
    await ctx.db.update(packages).set({ syncStatus: 'syncing', syncError: null }).where(eq(packages.id, packageId));
    const hostName = ctx.codeHost.kind === 'github' ? 'GitHub' : 'the repository folder';
    await task.progress(10, `Fetching ${pkg.repositoryFullName} from ${hostName}`);
    const repository = await updatePackageMirror(ctx, pkg);

    await task.progress(50, 'Reading tags and branches');
    const mirrorDir = packageMirrorDir(ctx, packageId);
    const references = await listReferences(mirrorDir);
    const commits = [...new Set(references.map((reference) => reference.commit))];
    // One `git cat-file --batch` for every reference's composer.json.
    const composerJsonByCommit = await readFilesAt(mirrorDir, commits, 'composer.json');
    const plan = planVersions(references, composerJsonByCommit, repository.defaultBranch);

    await task.progress(80, `Publishing ${plan.versions.length} versions`);
    const applied = await publishVersions(ctx, packageId, plan.versions);
    published = { changed: applied.changed, versionCount: plan.versions.length, skippedCount: plan.skipped.length };
    const now = ctx.clock.now();
    await ctx.db
      .update(packages)
      .set({
        syncStatus: 'ready',
        syncError: null,
        lastSyncedAt: now,
        skippedReferences: plan.skipped,
        repositoryFullName: repository.fullName,
        ...(applied.changed ? { metadataUpdatedAt: now } : {}),
      })
      .where(eq(packages.id, packageId));
    const skippedNote = plan.skipped.length > 0 ? `, ${plan.skipped.length} skipped` : '';
    await task.complete(`Synced ${pkg.name}: ${plan.versions.length} versions${skippedNote}`, {
      versionCount: plan.versions.length,
      skippedCount: plan.skipped.length,
      changed: applied.changed,
    });
    await deleteUnusedDists(ctx, packageId, applied.unusedDistKeys);
  } catch (error) {
    const message = (await findPackage(ctx, packageId).catch(() => undefined))
      ? describeSyncFailure(ctx, error)
      : 'The package was deleted while it was being synced.';
    ctx.log.warn({ err: error, packageId, taskId: task.id }, 'package sync failed');
    await ctx.db
      .update(packages)
      .set({ syncStatus: 'failed', syncError: message })
      .where(eq(packages.id, packageId))
      .catch(() => undefined);
    await task.fail(message);
    return failed(message);
  }

  const preCacheTaskId = await runPreCache(ctx, pkg, userId);
  return { packageId, status: 'ready', ...published, preCacheTaskId };
}

async function runPreCache(ctx: AppContext, pkg: PackageRow, userId: string): Promise<string | undefined> {
  let task: RunningTask;
  try {
    task = await startTask(ctx, {
      userId,
      type: 'package-pre-cache',
      message: `Preparing zips of ${pkg.name}`,
      data: { packageId: pkg.id, packageName: pkg.name },
    });
  } catch (error) {
    ctx.log.warn({ err: error, packageId: pkg.id }, 'could not start the pre-cache task');
    return undefined;
  }
  try {
    const result = await preCachePackage(ctx, pkg.id, task);
    if (result.failed > 0) {
      await task.fail(
        `${result.failed} of ${result.total} zips of ${pkg.name} could not be built; they will be built on first download.`,
        result,
      );
    } else {
      await task.complete(
        result.total === 0 ? `All zips of ${pkg.name} are ready` : `Prepared ${result.built} zips of ${pkg.name}`,
        result,
      );
    }
  } catch (error) {
    ctx.log.warn({ err: error, packageId: pkg.id }, 'pre-cache failed');
    await task.fail(`Preparing the zips of ${pkg.name} failed; they will be built on first download.`);
  }
  return task.id;
}

/** Key order is not kept by jsonb: compare manifests by content. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function isSameVersion(row: PackageVersionRow, version: ComputedVersion): boolean {
  return (
    row.commit === version.commit &&
    row.normalizedVersion === version.normalizedVersion &&
    row.kind === version.kind &&
    row.reference === version.reference &&
    row.releasedAt.getTime() === version.releasedAt.getTime() &&
    canonical(row.composerJson) === canonical(version.composerJson)
  );
}

/**
 * Makes the package's version rows exactly `versions`: inserts new ones, updates moved ones, deletes vanished
 * ones, in one transaction. A version keeps its zip while its commit stays; a new version of a commit that
 * already has a zip shares it.
 */
async function publishVersions(
  ctx: AppContext,
  packageId: string,
  versions: ComputedVersion[],
): Promise<{ changed: boolean; unusedDistKeys: string[] }> {
  return ctx.db.transaction(async (tx) => {
    const existing = await tx.select().from(packageVersions).where(eq(packageVersions.packageId, packageId));
    const existingByVersion = new Map(existing.map((row) => [row.version, row]));
    const wanted = new Set(versions.map((version) => version.version));
    const wantedCommits = new Set(versions.map((version) => version.commit));
    const distByCommit = new Map(
      existing
        .filter((row) => row.distKey && row.distSha1 && row.distSize !== null)
        .map((row) => [
          row.commit,
          { distKey: row.distKey, distSha1: row.distSha1, distSize: row.distSize, distBuiltAt: row.distBuiltAt },
        ]),
    );
    let changed = false;
    const unusedDistKeys: string[] = [];

    for (const row of existing) {
      if (wanted.has(row.version)) continue;
      await tx.delete(packageVersions).where(eq(packageVersions.id, row.id));
      changed = true;
      if (row.distKey && !wantedCommits.has(row.commit)) unusedDistKeys.push(row.distKey);
    }
    for (const version of versions) {
      const row = existingByVersion.get(version.version);
      const dist = distByCommit.get(version.commit) ?? {
        distKey: null,
        distSha1: null,
        distSize: null,
        distBuiltAt: null,
      };
      const values = {
        normalizedVersion: version.normalizedVersion,
        kind: version.kind,
        reference: version.reference,
        commit: version.commit,
        releasedAt: version.releasedAt,
        composerJson: version.composerJson,
      };
      if (!row) {
        await tx.insert(packageVersions).values({
          packageId,
          version: version.version,
          ...values,
          ...dist,
          createdAt: ctx.clock.now(),
        });
        changed = true;
      } else if (!isSameVersion(row, version)) {
        const keepsZip = row.commit === version.commit;
        await tx
          .update(packageVersions)
          .set({ ...values, ...(keepsZip ? {} : dist) })
          .where(eq(packageVersions.id, row.id));
        if (!keepsZip && row.distKey && !wantedCommits.has(row.commit)) unusedDistKeys.push(row.distKey);
        changed = true;
      }
    }
    return { changed, unusedDistKeys };
  });
}
