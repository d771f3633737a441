import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { defineJob } from '../../jobs/job-definition.js';
import { reconcilePackages } from './package-reconcile.js';

// The `package-reconcile` job: every CODE_HOST_RECONCILE_MINUTES for every package (the scheduled one re-queues
// itself, whatever happened), or at once for one seller's packages when they ask (Check for new tags, API).

export const RECONCILE_JOB = 'package-reconcile';
const SCHEDULED_KEY = 'package-reconcile:scheduled';

const reconcilePayload = z.object({
  /** One seller's packages (on demand); every package when absent (the schedule). */
  ownerId: z.string().min(1).optional(),
  scheduled: z.boolean(),
});
type ReconcilePayload = z.infer<typeof reconcilePayload>;

declare module '../../jobs/job-definition.js' {
  interface JobPayloads {
    [RECONCILE_JOB]: ReconcilePayload;
  }
}

/** Queues the next scheduled reconciliation, unless one is queued already (several processes start at once). */
export async function scheduleReconciliation(ctx: AppContext): Promise<void> {
  if (await ctx.jobs.findQueued(RECONCILE_JOB, SCHEDULED_KEY)) return;
  await ctx.jobs.enqueue(
    RECONCILE_JOB,
    { scheduled: true },
    { concurrencyKey: SCHEDULED_KEY, delayMs: ctx.config.codeHostReconcileMinutes * 60_000 },
  );
}

/** Queues a reconciliation of the owner's packages now (joining one already queued); answers its job id. */
export async function requestReconciliation(ctx: AppContext, ownerId: string): Promise<string> {
  const key = `package-reconcile:${ownerId}`;
  const queued = await ctx.jobs.findQueued(RECONCILE_JOB, key);
  if (queued) return queued.id;
  const job = await ctx.jobs.enqueue(RECONCILE_JOB, { ownerId, scheduled: false }, { concurrencyKey: key });
  return job.id;
}

export const reconcileJob = defineJob<AppContext, typeof RECONCILE_JOB>({
  kind: RECONCILE_JOB,
  payload: reconcilePayload,
  maxAttempts: 1,
  async handler(ctx, payload, run) {
    try {
      return await reconcilePackages(ctx, { ownerId: payload.ownerId, signal: run.signal });
    } finally {
      if (payload.scheduled) await scheduleReconciliation(ctx);
    }
  },
});
