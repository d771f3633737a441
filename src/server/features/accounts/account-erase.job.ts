import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { defineJob } from '../../jobs/job-definition.js';
import { ACCOUNT_ERASE_JOB, ACCOUNT_ERASE_MAX_ATTEMPTS, eraseClosedAccount } from './account-closing.js';

// The `account.erase` job (closeAccount queues it for the account's erase date): erases the closed account's
// personal data (account-closing.ts).

const erasePayload = z.object({ accountId: z.string().min(1) });

declare module '../../jobs/job-definition.js' {
  interface JobPayloads {
    [ACCOUNT_ERASE_JOB]: z.infer<typeof erasePayload>;
  }
}

export const accountEraseJob = defineJob<AppContext, typeof ACCOUNT_ERASE_JOB>({
  kind: ACCOUNT_ERASE_JOB,
  payload: erasePayload,
  maxAttempts: ACCOUNT_ERASE_MAX_ATTEMPTS,
  handler: (ctx, payload) => eraseClosedAccount(ctx, payload.accountId),
});
