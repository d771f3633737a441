import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { defineJob } from '../../jobs/job-definition.js';
import { resumeTask } from '../tasks/tasks.service.js';
import { CACHE_CLEAR_JOB, CACHE_JOB_MAX_ATTEMPTS, CACHE_REFRESH_JOB, runClear, runRefresh } from './cache.service.js';

// The admin cache panel's jobs (cache.service.ts queues them): `cache-refresh` and `cache-clear`, each reporting to
// the admin's task.

const refreshPayload = z.object({
  adminId: z.string().min(1),
  taskId: z.string().min(1),
  targets: z.array(z.object({ id: z.string().min(1), name: z.string() })),
});
const clearPayload = z.object({ taskId: z.string().min(1) });

declare module '../../jobs/job-definition.js' {
  interface JobPayloads {
    [CACHE_REFRESH_JOB]: z.infer<typeof refreshPayload>;
    [CACHE_CLEAR_JOB]: z.infer<typeof clearPayload>;
  }
}

export const cacheRefreshJob = defineJob<AppContext, typeof CACHE_REFRESH_JOB>({
  kind: CACHE_REFRESH_JOB,
  payload: refreshPayload,
  maxAttempts: CACHE_JOB_MAX_ATTEMPTS,
  async handler(ctx, payload) {
    const task = await resumeTask(ctx, payload.taskId);
    if (task) await runRefresh(ctx, payload.adminId, task, payload.targets);
    return {};
  },
  async onGiveUp(ctx, payload) {
    await (await resumeTask(ctx, payload.taskId))?.fail('Failed to refresh cache');
  },
});

export const cacheClearJob = defineJob<AppContext, typeof CACHE_CLEAR_JOB>({
  kind: CACHE_CLEAR_JOB,
  payload: clearPayload,
  maxAttempts: CACHE_JOB_MAX_ATTEMPTS,
  async handler(ctx, payload) {
    const task = await resumeTask(ctx, payload.taskId);
    if (task) await runClear(ctx, task);
    return {};
  },
  async onGiveUp(ctx, payload) {
    await (await resumeTask(ctx, payload.taskId))?.fail('Failed to clear cache');
  },
});
