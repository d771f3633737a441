import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { defineJob } from '../../jobs/job-definition.js';
import { resumeTask } from '../tasks/tasks.service.js';
import { CACHE_CLEAR_JOB, CACHE_JOB_MAX_ATTEMPTS, runClear } from './cache.service.js';

// The admin cache panel's job (cache.service.ts queues it): `cache-clear`, reporting to the admin's task. A cache
// refresh is no job of its own: it queues the packages' syncs, which report to its task (packages/package-refresh.ts).

const clearPayload = z.object({ taskId: z.string().min(1) });

declare module '../../jobs/job-definition.js' {
  interface JobPayloads {
    [CACHE_CLEAR_JOB]: z.infer<typeof clearPayload>;
  }
}

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
