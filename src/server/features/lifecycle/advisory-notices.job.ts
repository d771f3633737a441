import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { defineJob } from '../../jobs/job-definition.js';
import { ADVISORY_NOTICE_JOB, ADVISORY_NOTICE_MAX_ATTEMPTS, sendAdvisoryNotices } from './lifecycle.service.js';

// The `advisory-notices` job (lifecycle.service.ts queues it with a new advisory): e-mails the package's holders.

const advisoryNoticePayload = z.object({ advisoryId: z.string().min(1) });

declare module '../../jobs/job-definition.js' {
  interface JobPayloads {
    [ADVISORY_NOTICE_JOB]: z.infer<typeof advisoryNoticePayload>;
  }
}

export const advisoryNoticesJob = defineJob<AppContext, typeof ADVISORY_NOTICE_JOB>({
  kind: ADVISORY_NOTICE_JOB,
  payload: advisoryNoticePayload,
  maxAttempts: ADVISORY_NOTICE_MAX_ATTEMPTS,
  async handler(ctx, payload) {
    return { sent: await sendAdvisoryNotices(ctx, payload.advisoryId) };
  },
});
