import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { defineJob } from '../../jobs/job-definition.js';
import {
  buildDist,
  DIST_BUILD_JOB,
  DIST_BUILD_MAX_ATTEMPTS,
  type DistBuildResult,
  distKeyFor,
} from './package-dists.js';
import { findPackageRow } from './package-sync.repository.js';

// The `dist-build` job (package-dists.ts queues or joins it): builds a version's zip (or finds it stored) and
// records it on the commit's version rows.

const distBuildPayload = z.object({ packageId: z.string().min(1), commit: z.string().min(1) });

declare module '../../jobs/job-definition.js' {
  interface JobPayloads {
    [DIST_BUILD_JOB]: z.infer<typeof distBuildPayload>;
  }
}

export const distBuildJob = defineJob<AppContext, typeof DIST_BUILD_JOB>({
  kind: DIST_BUILD_JOB,
  payload: distBuildPayload,
  maxAttempts: DIST_BUILD_MAX_ATTEMPTS,
  singletonKey: ({ packageId, commit }) => distKeyFor(packageId, commit),
  async handler(ctx, { packageId, commit }): Promise<DistBuildResult> {
    const pkg = await findPackageRow(ctx.db, packageId);
    if (!pkg) return { isPackageGone: true };
    return buildDist(ctx, pkg, commit);
  },
  // A refusal (the code host no longer reachable for this package, say) reaches the waiting downloads as it is.
  describeFailure: (error) =>
    error instanceof AppError
      ? { error: { code: error.code, message: error.message, title: error.title, suggestion: error.suggestion } }
      : undefined,
});
