import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { defineJob } from '../../jobs/job-definition.js';
import { resumeTask } from '../tasks/tasks.service.js';
import { reportRefreshedPackage } from './package-refresh.js';
import { failedOutcome, PACKAGE_SYNC_JOB, runSync, SYNC_MAX_ATTEMPTS } from './package-sync.js';

// The `package-sync` job (package-sync.ts queues it): the sync of one package, its github-sync task reporting to
// the owner (or the admin who refreshed the cache).

const syncPayload = z.object({
  packageId: z.string().min(1),
  userId: z.string().min(1),
  taskId: z.string().min(1),
  /** The admin's cache refresh this sync is part of: told when the sync is over. */
  refresh: z.object({ taskId: z.string().min(1), packageName: z.string() }).optional(),
});
type SyncPayload = z.infer<typeof syncPayload>;

/** Tells the cache refresh the sync is part of (if any) that it is over. */
async function reportToRefresh(ctx: AppContext, payload: SyncPayload, jobId: string, isFailed: boolean) {
  if (!payload.refresh) return;
  await reportRefreshedPackage(ctx, payload.refresh.taskId, {
    key: jobId,
    name: payload.refresh.packageName,
    isFailed,
  });
}

declare module '../../jobs/job-definition.js' {
  interface JobPayloads {
    [PACKAGE_SYNC_JOB]: SyncPayload;
  }
}

export const syncPackageJob = defineJob<AppContext, typeof PACKAGE_SYNC_JOB>({
  kind: PACKAGE_SYNC_JOB,
  payload: syncPayload,
  maxAttempts: SYNC_MAX_ATTEMPTS,
  async handler(ctx, payload, run) {
    const task = await resumeTask(ctx, payload.taskId);
    if (!task) {
      await reportToRefresh(ctx, payload, run.job.id, true);
      return failedOutcome(payload.packageId, 'The task of the sync is gone.');
    }
    try {
      const outcome = await runSync(ctx, payload.packageId, task, payload.userId);
      ctx.metrics.syncEnded(outcome.status);
      await reportToRefresh(ctx, payload, run.job.id, outcome.status === 'failed');
      return outcome;
    } catch (error) {
      ctx.metrics.syncEnded('failed');
      throw error;
    }
  },
  async onGiveUp(ctx, payload, error, job) {
    ctx.log.warn({ packageId: payload.packageId, error }, 'package sync failed for good');
    // Failing the task fails the package too (the task holds the sync's state: migration 0031's trigger).
    await (await resumeTask(ctx, payload.taskId))?.fail('The sync failed. Refresh the package to try again.');
    await reportToRefresh(ctx, payload, job.id, true);
  },
});
