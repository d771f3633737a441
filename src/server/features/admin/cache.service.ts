import type { CachedPackage, CacheStats } from '../../../contract/admin.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { clearAllDists } from '../packages/package-changes.service.js';
import { reportRefreshedPackage, syncPackage } from '../packages/packages.service.js';
import { type RunningTask, startTask } from '../tasks/tasks.service.js';
import * as repository from './admin.repository.js';

// The admin cache panel: the dist zips of every package (object storage under `dists/`), how much of it is
// built, and two tasks the admin watches: `cache-refresh` (queues each package's sync, a durable job that builds
// the missing zips too and reports to the task as it ends; nothing waits on the syncs) and `cache-clear` (a durable
// job that deletes every zip). Clearing is safe for installs: the dist endpoint builds a
// missing zip on demand (ensureDist). Figures come from the version rows (distSize, distBuiltAt), so the panel's
// 30-second polling costs one database query and no storage calls; a zip is counted once per commit, as stored.

export const CACHE_CLEAR_JOB = 'cache-clear';
/** A refresh or clear that throws is tried again with backoff (both are safe to repeat). */
export const CACHE_JOB_MAX_ATTEMPTS = 3;

type PackageFigures = {
  id: string;
  name: string;
  isActive: boolean;
  /** Why the code host refuses the package's code, shown on the cache screen; null while it works. */
  accessProblem: string | null;
  versionCount: number;
  cachedVersionCount: number;
  sizeBytes: number;
  lastBuiltAt: Date | null;
};

/** Bytes as display text: '0 B', '512 B', '1.2 KB', '3.4 MB' (1024-based, one decimal above bytes). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 B';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${Math.round(value)} B` : `${value.toFixed(1)} ${units[unit]}`;
}

async function packageFigures(ctx: AppContext): Promise<PackageFigures[]> {
  const rows = await repository.selectPackagesWithDists(ctx.db);
  const byPackage = new Map<string, PackageFigures & { keys: Set<string> }>();
  for (const row of rows) {
    let figures = byPackage.get(row.id);
    if (!figures) {
      figures = {
        id: row.id,
        name: row.name,
        isActive: row.isActive,
        accessProblem: row.accessProblem,
        versionCount: 0,
        cachedVersionCount: 0,
        sizeBytes: 0,
        lastBuiltAt: null,
        keys: new Set(),
      };
      byPackage.set(row.id, figures);
    }
    if (!row.versionId) continue;
    figures.versionCount++;
    if (row.distKey === null || row.distSha1 === null || row.distSize === null) continue;
    figures.cachedVersionCount++;
    // Versions of one commit share one zip.
    if (!figures.keys.has(row.distKey)) {
      figures.keys.add(row.distKey);
      figures.sizeBytes += row.distSize;
    }
    if (row.distBuiltAt && (!figures.lastBuiltAt || row.distBuiltAt > figures.lastBuiltAt)) {
      figures.lastBuiltAt = row.distBuiltAt;
    }
  }
  return [...byPackage.values()].map(({ keys: _keys, ...figures }) => figures);
}

/** A package is cached when it has versions and every one of them has its zip. */
function isCached(figures: PackageFigures): boolean {
  return figures.versionCount > 0 && figures.cachedVersionCount === figures.versionCount;
}

export async function getCacheStats(ctx: AppContext): Promise<CacheStats> {
  const all = await packageFigures(ctx);
  let sizeBytes = 0;
  let lastUpdated: Date | null = null;
  for (const figures of all) {
    sizeBytes += figures.sizeBytes;
    if (figures.lastBuiltAt && (!lastUpdated || figures.lastBuiltAt > lastUpdated)) lastUpdated = figures.lastBuiltAt;
  }
  return {
    totalPackages: all.length,
    cachedPackages: all.filter(isCached).length,
    cacheSize: formatBytes(sizeBytes),
    lastUpdated: lastUpdated?.toISOString() ?? null,
  };
}

export async function listCachedPackages(ctx: AppContext): Promise<CachedPackage[]> {
  return (await packageFigures(ctx)).map((figures) => ({
    id: figures.id,
    packageName: figures.name,
    isActive: figures.isActive,
    isCached: isCached(figures),
    cacheSize: formatBytes(figures.sizeBytes),
    lastCached: figures.lastBuiltAt?.toISOString() ?? null,
    accessProblem: figures.accessProblem,
  }));
}

type RefreshTarget = { id: string; name: string };

/**
 * Refreshes every active package in a `cache-refresh` task owned by the admin: queues their syncs and returns; the
 * task reports progress as each ends, and ends completed, or failed when a package could not be refreshed.
 */
export async function refreshAllPackages(
  ctx: AppContext,
  adminId: string,
): Promise<{ taskId: string; packageCount: number }> {
  const targets = await repository.selectActivePackageTargets(ctx.db);
  const task = await startTask(ctx, {
    userId: adminId,
    type: 'cache-refresh',
    message: `Refreshing ${targets.length} packages`,
    data: { packageCount: targets.length, total: targets.length },
  });
  await queueRefreshSyncs(ctx, adminId, task, targets);
  return { taskId: task.id, packageCount: targets.length };
}

/** Refreshes one package (active or not) in a `cache-refresh` task; 404 for an unknown id. */
export async function refreshPackage(ctx: AppContext, adminId: string, packageId: string): Promise<{ taskId: string }> {
  const target = await repository.findPackageTarget(ctx.db, packageId);
  if (!target) throw new AppError('NOT_FOUND', 'Package not found');
  const task = await startTask(ctx, {
    userId: adminId,
    type: 'cache-refresh',
    message: `Refreshing ${target.name}`,
    data: { packageCount: 1, total: 1, packageId: target.id, packageName: target.name },
  });
  await queueRefreshSyncs(ctx, adminId, task, [target]);
  return { taskId: task.id };
}

/**
 * Queues one sync per package for the refresh and returns: each sync's job tells the task when it is over, and the
 * last one ends it (packages/package-refresh.ts). Nothing waits on the syncs.
 */
async function queueRefreshSyncs(ctx: AppContext, adminId: string, task: RunningTask, targets: RefreshTarget[]) {
  if (targets.length === 0) {
    await task.complete('Refreshed 0 packages', { refreshedCount: 0 });
    return;
  }
  for (const target of targets) {
    try {
      // The sync's own github-sync and package-pre-cache tasks go to the admin too.
      await syncPackage(ctx, target.id, { userId: adminId, refreshTaskId: task.id });
    } catch (error) {
      // A package deleted meanwhile (NOT_FOUND) or an unexpected error: count it failed and go on with the others.
      ctx.log.warn({ err: error, packageId: target.id, taskId: task.id }, 'cache refresh of a package failed');
      await reportRefreshedPackage(ctx, task.id, { key: `package:${target.id}`, name: target.name, isFailed: true });
    }
  }
}

/** Deletes every dist zip (package-changes.service clearAllDists) in a `cache-clear` task owned by the admin. */
export async function clearCache(ctx: AppContext, adminId: string): Promise<{ taskId: string }> {
  const task = await startTask(ctx, { userId: adminId, type: 'cache-clear', message: 'Clearing the package cache' });
  await ctx.jobs.enqueue(CACHE_CLEAR_JOB, { taskId: task.id });
  return { taskId: task.id };
}

export async function runClear(ctx: AppContext, task: RunningTask): Promise<void> {
  try {
    const deletedCount = await clearAllDists(ctx, () => task.progress(50, 'Deleting cached package zips'));
    await task.complete('All cached packages have been cleared', { deletedCount });
  } catch (error) {
    // Retried by the job runner; the task fails when the attempts are spent (onGiveUp).
    ctx.log.error({ err: error, taskId: task.id }, 'cache clear failed');
    throw error;
  }
}
