import { listReferences, readFilesAt } from '../../adapters/git/git-repository.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import type { JobRow } from '../../jobs/jobs.repository.js';
import { codeHostName } from '../code-hosts/code-hosts.service.js';
import { type RunningTask, startTask } from '../tasks/tasks.service.js';
import { emitVersionPublished } from '../webhooks/webhook-events.service.js';
import { describeSyncFailure } from './code-host-access.js';
import { gitServerPlaceOf } from './git-failures.js';
import { adoptComposerName } from './git-package-name.js';
import { clearAccessProblem, recordAccessRefusal } from './package-access-problems.js';
import { deleteUnusedDists, type PackageVersionRow, preCachePackage } from './package-dists.js';
import { type PackageRow, packageMirrorDir, updatePackageMirror } from './package-mirror.js';
import * as repository from './package-sync.repository.js';
import { type ComputedVersion, planVersions, publicationTime } from './package-versions.js';
import { selectPackageVersions, updatePackageRow } from './packages.repository.js';

// A package sync is a durable job (src/server/jobs): the `github-sync` task brings the mirror up to date and
// publishes the versions Composer would read from it, then the `package-pre-cache` task builds the missing
// zips. Whichever process claims the job runs it and reports to the owner's sockets (the realtime channel
// spans processes). One sync per package at a time, across processes (the jobs' concurrency key): a request
// arriving while one runs queues one more, and requests arriving while one is queued join that one (a burst of
// pushes costs at most one extra sync). A restart resumes queued and interrupted syncs.

export const PACKAGE_SYNC_JOB = 'package-sync';
/** A sync that throws (not a code-host failure, which is recorded as the outcome) is tried this often. */
export const SYNC_MAX_ATTEMPTS = 3;
/** How long `done` waits for a sync before answering it failed (a bound, not an expectation). */
const SYNC_WAIT_BOUND_MS = 30 * 60_000;

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
export type SyncHandle = { taskId: string; jobId: string; done: Promise<SyncOutcome> };

/** `refresh`: the admin's cache-refresh task this sync is part of (package-refresh.ts), told when it ends. */
type SyncPayload = {
  packageId: string;
  userId: string;
  taskId: string;
  refresh?: { taskId: string; packageName: string };
};

function syncKey(packageId: string): string {
  return `package:${packageId}`;
}

export function failedOutcome(packageId: string, error: string): SyncOutcome {
  return { packageId, status: 'failed', error, changed: false, versionCount: 0, skippedCount: 0 };
}

function outcomeOf(job: JobRow): SyncOutcome {
  const payload = job.payload as SyncPayload;
  if (job.status === 'completed' && job.result) return job.result as unknown as SyncOutcome;
  return failedOutcome(payload.packageId, job.lastError ?? 'The sync failed.');
}

function handleFor(ctx: AppContext, job: JobRow): SyncHandle {
  const done = ctx.jobs
    .waitFor(job.id, SYNC_WAIT_BOUND_MS)
    .then(outcomeOf)
    .catch((error: unknown) =>
      failedOutcome((job.payload as SyncPayload).packageId, error instanceof Error ? error.message : String(error)),
    );
  return { taskId: (job.payload as SyncPayload).taskId, jobId: job.id, done };
}

/**
 * Queues a sync of the package from its code host (or joins the one already queued); progress goes to
 * `userId`'s sockets. The caller has already checked that the user may do this (tenancy is the service's business).
 */
export async function syncPackage(
  ctx: AppContext,
  packageId: string,
  options: { userId: string; refreshTaskId?: string },
): Promise<SyncHandle> {
  const key = syncKey(packageId);
  // A sync of a cache refresh queues its own job, which tells the refresh when it ends.
  const queued = options.refreshTaskId ? undefined : await ctx.jobs.findQueued(PACKAGE_SYNC_JOB, key);
  if (queued) return handleFor(ctx, queued);
  const pkg = await repository.findPackageNameAndHost(ctx.db, packageId);
  if (!pkg) throw new AppError('NOT_FOUND', 'Package not found');
  const isRunning = await ctx.jobs.hasRunning(key);
  const task = await startTask(ctx, {
    userId: options.userId,
    type: 'github-sync',
    message: isRunning ? `Waiting for the running sync of ${pkg.name}` : `Syncing ${pkg.name}`,
    // The screens name the sync after the package's own code host, which need not be the server's (issue 36).
    data: { packageId, packageName: pkg.name, codeHost: pkg.codeHost },
  });
  const payload: SyncPayload = { packageId, userId: options.userId, taskId: task.id };
  if (options.refreshTaskId) payload.refresh = { taskId: options.refreshTaskId, packageName: pkg.name };
  const job = await ctx.jobs.enqueue(PACKAGE_SYNC_JOB, payload, { concurrencyKey: key });
  return handleFor(ctx, job);
}

/**
 * Logs at start-up how many packages come from a code host this server cannot reach (GitHub no longer configured,
 * or GIT_REPOS_DIR gone): their syncs fail until it is set up again, and the log is where the operator looks.
 */
export async function warnOfPackagesOnMissingHosts(ctx: AppContext): Promise<void> {
  const byHost = await repository.countPackagesByCodeHost(ctx.db);
  for (const { codeHost, count: packageCount } of byHost) {
    if (ctx.codeHosts[codeHost] || packageCount === 0) continue;
    const remedy =
      codeHost === 'github'
        ? 'set GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET'
        : `create GIT_REPOS_DIR (${ctx.config.gitReposDir}) with their repositories`;
    ctx.log.warn(
      { codeHost, packages: packageCount },
      `${packageCount} ${packageCount === 1 ? 'package comes' : 'packages come'} from ${codeHostName(codeHost)}, ` +
        `which this server is not configured to use: their syncs fail until you ${remedy} and restart`,
    );
  }
}

/**
 * Waits for the package's queued and running syncs (whichever process runs them), e.g. before deleting its
 * files; gives up quietly after `timeoutMs`.
 */
export async function waitForPackageSync(ctx: AppContext, packageId: string, timeoutMs: number): Promise<void> {
  const unfinished = await ctx.jobs.findUnfinished(syncKey(packageId));
  await Promise.allSettled(unfinished.map((job) => ctx.jobs.waitFor(job.id, timeoutMs)));
}

async function findPackage(ctx: AppContext, packageId: string): Promise<PackageRow | undefined> {
  return repository.findPackageRow(ctx.db, packageId);
}

export async function runSync(
  ctx: AppContext,
  packageId: string,
  task: RunningTask,
  userId: string,
): Promise<SyncOutcome> {
  const failed = (error: string): SyncOutcome => failedOutcome(packageId, error);
  let pkg = await findPackage(ctx, packageId).catch(() => undefined);
  if (!pkg) {
    await task.fail('The package was deleted before it could be synced.');
    return failed('The package was deleted.');
  }

  let published: { changed: boolean; versionCount: number; skippedCount: number };
  try {
    // The task holds the sync's state; the package's sync_status and sync_error follow it (migration 0031's trigger).
    await task.progress(10, `Fetching ${pkg.repositoryFullName} from ${codeHostName(pkg.codeHost)}`);
    const repository = await updatePackageMirror(ctx, pkg);
    // Over SSH a package is named from its URL until its code can be read: composer.json names it now.
    pkg = await adoptComposerName(ctx, pkg, packageMirrorDir(ctx, packageId), repository.defaultBranch);

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
    await updatePackageRow(ctx.db, packageId, {
      lastSyncedAt: now,
      skippedReferences: plan.skipped,
      repositoryFullName: repository.fullName,
      ...(applied.changed ? { metadataUpdatedAt: now } : {}),
    });
    const skippedNote = plan.skipped.length > 0 ? `, ${plan.skipped.length} skipped` : '';
    await task.complete(`Synced ${pkg.name}: ${plan.versions.length} versions${skippedNote}`, {
      versionCount: plan.versions.length,
      skippedCount: plan.skipped.length,
      changed: applied.changed,
    });
    await deleteUnusedDists(ctx, packageId, applied.unusedDistKeys);
    await clearAccessProblem(ctx, pkg);
  } catch (error) {
    const message = (await findPackage(ctx, packageId).catch(() => undefined))
      ? describeSyncFailure(ctx, error, pkg.codeHost, gitServerPlaceOf(pkg))
      : 'The package was deleted while it was being synced.';
    ctx.log.warn({ err: error, packageId, taskId: task.id }, 'package sync failed');
    await task.fail(message);
    // A refusal (credential revoked, repository gone) shows on Management and reaches the seller once.
    await recordAccessRefusal(ctx, pkg, error).catch((noticeError: unknown) => {
      ctx.log.warn({ err: noticeError, packageId }, 'could not record the access problem of a package');
    });
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
 *
 * Publication time (what an update window compares with): a version first seen now is published now, or at its
 * annotated tag's date when that is later; a version whose row stays at the same commit keeps its time; a reference
 * moved to another commit is new content, published now (a frozen license covers what existed before its end, not
 * what a tag was later made to name). A version that vanishes and comes back is published again when it returns.
 */
async function publishVersions(
  ctx: AppContext,
  packageId: string,
  versions: ComputedVersion[],
): Promise<{ changed: boolean; unusedDistKeys: string[] }> {
  return ctx.db.transaction(async (tx) => {
    const now = ctx.clock.now();
    const existing = await selectPackageVersions(tx, packageId);
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
      await repository.deleteVersionRow(tx, row.id);
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
        await repository.insertVersionRow(tx, {
          packageId,
          version: version.version,
          ...values,
          ...dist,
          publishedAt: publicationTime(version, now),
          createdAt: now,
        });
        await emitVersionPublished(ctx, packageId, version, { db: tx });
        changed = true;
      } else if (!isSameVersion(row, version)) {
        // The same commit keeps its zip and its publication time; another commit is a new publication.
        const isSameCommit = row.commit === version.commit;
        await repository.updateVersionRow(tx, row.id, {
          ...values,
          ...(isSameCommit ? {} : { ...dist, publishedAt: publicationTime(version, now) }),
        });
        if (!isSameCommit && row.distKey && !wantedCommits.has(row.commit)) unusedDistKeys.push(row.distKey);
        changed = true;
      }
    }
    return { changed, unusedDistKeys };
  });
}
