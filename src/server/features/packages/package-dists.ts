import { createHash } from 'node:crypto';
import { GitError } from '../../adapters/git/git-command.js';
import { archiveZip } from '../../adapters/git/git-repository.js';
import type { AppContext } from '../../context.js';
import { AppError, type ErrorCode } from '../../http/errors.js';
import type { RunningTask } from '../tasks/tasks.service.js';
import { type PackageRow, packageMirrorDir, updatePackageMirror } from './package-mirror.js';
import * as repository from './package-sync.repository.js';
import { updatePackageRow } from './packages.repository.js';

// Dist zips: `git archive` of the exact commit, built once per commit and kept in object storage at
// `dists/{packageId}/{commit}.zip` with its SHA-1 (Composer's `dist.shasum`) and size on every version row
// of that commit. Built ahead of time by the pre-cache task of the sync job, and on demand when missing (after a
// cache clear). An on-demand build is a durable job keyed by the zip (DIST_BUILD_JOB): the first request in any
// process queues it and runs it at once, requests in other processes join it and wait for its end, and a process
// killed mid-build leaves it to another once its lease runs out. Two builds of one zip (the pre-cache and a request
// in another process) write the same bytes.

export const DIST_BUILD_JOB = 'dist-build';
/**
 * A failed build fails the requests waiting for it (as a build in the request did): Composer does not wait through a
 * backoff, and the next request queues a new job. A build whose process died is still taken over and finished.
 */
export const DIST_BUILD_MAX_ATTEMPTS = 1;
/**
 * How long a download waits at least for a build running elsewhere: past a lease (a killed builder's job is taken
 * over once its lease runs out, so the bound is two leases when those are longer) and a build.
 */
const DIST_BUILD_WAIT_MS = 180_000;

type DistBuildPayload = { packageId: string; commit: string };
export type DistBuildResult = DistInfo | { isPackageGone: true };
type StoredAppError = { code: ErrorCode; message: string; title: string; suggestion?: string };

export type PackageVersionRow = repository.VersionRow;
export type CachedVersion = PackageVersionRow & { distKey: string; distSha1: string; distSize: number };
type DistInfo = { key: string; sha1: string; size: number };

export const ZIP_CONTENT_TYPE = 'application/zip';

export function distPrefixFor(packageId: string): string {
  return `dists/${packageId}/`;
}

export function distKeyFor(packageId: string, commit: string): string {
  return `${distPrefixFor(packageId)}${commit}.zip`;
}

/**
 * Every entry sits under one folder, as in GitHub's zipballs: Composer strips a single top-level folder when
 * it extracts, so without one a package whose only top-level entry is a folder would lose that folder.
 */
function zipPrefix(packageName: string, commit: string): string {
  return `${packageName.replace('/', '-')}-${commit.slice(0, 12)}/`;
}

function isCached(version: PackageVersionRow): version is CachedVersion {
  return version.distKey !== null && version.distSha1 !== null && version.distSize !== null;
}

/**
 * The version with its zip in storage: as it is when the stored zip exists, else built now (from the mirror,
 * fetched again from the code host if the mirror lacks the commit) and recorded on every version of that commit.
 * Costs one storage `head` when the zip is there.
 */
export async function ensureDist(ctx: AppContext, version: PackageVersionRow): Promise<CachedVersion> {
  if (isCached(version) && (await ctx.storage.head(version.distKey))) return version;
  const pkg = await repository.findPackageRow(ctx.db, version.packageId);
  if (!pkg) throw new AppError('NOT_FOUND', 'Package not found');
  const dist = await buildDistOnce(ctx, pkg, version.commit);
  return { ...version, distKey: dist.key, distSha1: dist.sha1, distSize: dist.size };
}

/**
 * The zip built by the dist-build job of its key: queued here, or joined when a process already queued or runs it.
 * Requests in this process share one wait (the app's de-duplicator); the pre-cache, already inside a job, shares it
 * too but builds inline.
 */
function buildDistOnce(ctx: AppContext, pkg: PackageRow, commit: string, options: { isInline?: boolean } = {}) {
  const key = distKeyFor(pkg.id, commit);
  return ctx.distBuilds.run(key, () =>
    options.isInline ? buildDist(ctx, pkg, commit) : buildDistAsJob(ctx, pkg.id, commit, key),
  );
}

async function buildDistAsJob(ctx: AppContext, packageId: string, commit: string, key: string): Promise<DistInfo> {
  const payload: DistBuildPayload = { packageId, commit };
  let job = await ctx.jobs.enqueueOnce(DIST_BUILD_JOB, payload, { singletonKey: key });
  // Run at once, here, unless another process holds it: the client is waiting.
  if (job.status === 'queued') job = (await ctx.jobs.runNow(job.id)) ?? job;
  // A stopping process claims nothing: the build waits for the next process, and the client is told at once instead of
  // holding the shutdown past its deadline (Composer asks again after a 503).
  if (job.status === 'queued' && ctx.jobs.isStopping()) throw archiveNotReady();
  if (job.status !== 'completed' && job.status !== 'failed') {
    const bound = Math.max(DIST_BUILD_WAIT_MS, 2 * ctx.config.jobLeaseMs);
    job = await ctx.jobs.waitFor(job.id, bound).catch(() => {
      throw archiveNotReady();
    });
  }
  if (job.status === 'failed') {
    const refusal = (job.result as { error?: StoredAppError } | null)?.error;
    if (refusal)
      throw new AppError(refusal.code, refusal.message, { title: refusal.title, suggestion: refusal.suggestion });
    throw new Error(`The dist zip ${key} could not be built: ${job.lastError}`);
  }
  const result = job.result as DistBuildResult;
  if ('isPackageGone' in result) throw new AppError('NOT_FOUND', 'Package not found');
  return result;
}

/** The 503 of a download whose zip is not built yet and will not be here in time. */
function archiveNotReady(): AppError {
  return new AppError('UNAVAILABLE', 'The archive is still being prepared.', { suggestion: 'Try again in a minute.' });
}

export async function buildDist(ctx: AppContext, pkg: PackageRow, commit: string): Promise<DistInfo> {
  const key = distKeyFor(pkg.id, commit);
  const dist = (await findStoredDist(ctx, pkg.id, commit, key)) ?? (await archiveIntoStorage(ctx, pkg, commit, key));
  const published = await repository.selectDistShasOfCommit(ctx.db, pkg.id, commit);
  await repository.setDistOfCommit(ctx.db, pkg.id, commit, {
    distKey: dist.key,
    distSha1: dist.sha1,
    distSize: dist.size,
    distBuiltAt: ctx.clock.now(),
  });
  if (published.some((sha1) => sha1 !== null && sha1 !== dist.sha1)) {
    // A rebuilt zip with other bytes (another git version) changes dist.shasum: clients must refetch metadata.
    await updatePackageRow(ctx.db, pkg.id, { metadataUpdatedAt: ctx.clock.now() });
  }
  return dist;
}

/** The commit's zip when storage already has it (another version of the same commit, a lost row update). */
async function findStoredDist(
  ctx: AppContext,
  packageId: string,
  commit: string,
  key: string,
): Promise<DistInfo | undefined> {
  const stored = await ctx.storage.head(key);
  if (!stored) return undefined;
  const known = await repository.findRecordedDist(ctx.db, packageId, commit, key);
  if (known?.sha1 && known.size === stored.size) return { key, sha1: known.sha1, size: stored.size };
  // Hashing what is stored is cheaper than building it again, and keeps the shasum true to the bytes served.
  const object = await ctx.storage.get(key);
  if (!object) return undefined;
  const hash = createHash('sha1');
  let size = 0;
  for await (const chunk of object.stream) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { key, sha1: hash.digest('hex'), size };
}

async function archiveIntoStorage(ctx: AppContext, pkg: PackageRow, commit: string, key: string): Promise<DistInfo> {
  const mirrorDir = packageMirrorDir(ctx, pkg.id);
  const prefix = zipPrefix(pkg.name, commit);
  let archive: Awaited<ReturnType<typeof archiveZip>>;
  try {
    archive = await archiveZip(mirrorDir, commit, { prefix });
  } catch (error) {
    if (!(error instanceof GitError) || error.code === 'TIMEOUT' || error.code === 'INVALID_ARGUMENT') throw error;
    // The mirror is a disposable cache (deleted, or older than the commit): fetch it again and retry once.
    await updatePackageMirror(ctx, pkg);
    archive = await archiveZip(mirrorDir, commit, { prefix });
  }
  await ctx.storage.put(key, archive.zip, { contentType: ZIP_CONTENT_TYPE });
  return { key, sha1: archive.sha1, size: archive.size };
}

/**
 * The pre-cache task's work: builds the zip of every version without one, one commit at a time.
 * Stops quietly when the package is deleted meanwhile. Returns how many zips failed.
 */
export async function preCachePackage(
  ctx: AppContext,
  packageId: string,
  task: RunningTask,
): Promise<{ built: number; failed: number; total: number }> {
  const missing = await repository.selectCommitsWithoutDist(ctx.db, packageId);
  let built = 0;
  let failed = 0;
  for (const [index, { commit }] of missing.entries()) {
    const pkg = await repository.findPackageRow(ctx.db, packageId);
    if (!pkg) break;
    try {
      await buildDistOnce(ctx, pkg, commit, { isInline: true });
      built++;
    } catch (error) {
      failed++;
      ctx.log.warn({ err: error, packageId, commit }, 'could not build a dist zip');
    }
    await task.progress(((index + 1) / missing.length) * 100, `Prepared ${index + 1} of ${missing.length} zips`);
  }
  return { built, failed, total: missing.length };
}

/** Removes stored zips that no version of the package points at any more (moved branches, deleted tags). */
export async function deleteUnusedDists(ctx: AppContext, packageId: string, keys: string[]): Promise<void> {
  for (const key of new Set(keys)) {
    if (await repository.isDistKeyUsed(ctx.db, packageId, key)) continue;
    await ctx.storage.delete(key).catch((error: unknown) => {
      ctx.log.warn({ err: error, key }, 'could not delete an unused dist zip');
    });
  }
}
