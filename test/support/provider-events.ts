import { and, eq, inArray, lte, or } from 'drizzle-orm';
import type { BuiltApp } from '../../src/server/app.js';
import { jobs } from '../../src/server/db/schema/index.js';
import { BILLING_EVENT_JOB } from '../../src/server/features/billing/stripe-webhook.service.js';
import { CONNECT_EVENT_JOB } from '../../src/server/features/sales/connect-webhook.service.js';

// A payment provider's webhook is answered once its event is stored; a job applies it afterwards. Tests that look
// at what an event changed wait for those jobs first.

const PROVIDER_EVENT_JOBS = [CONNECT_EVENT_JOB, BILLING_EVENT_JOB];

/**
 * Waits until no job of `kinds` is waiting for its first attempt, due or running: each has run, or has failed an
 * attempt (its retry waits for the clock). A job a stopped process left running is put back due with its attempt
 * counted (jobs.repository.ts, requeueAllRunning): it is not settled until it has run. Rejects after `timeoutMs`.
 */
export async function settleJobs(app: Pick<BuiltApp, 'ctx'>, kinds: string[], timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const unsettled = await app.ctx.db
      .select({ id: jobs.id, kind: jobs.kind, status: jobs.status })
      .from(jobs)
      .where(
        and(
          inArray(jobs.kind, kinds),
          or(
            eq(jobs.status, 'running'),
            and(eq(jobs.status, 'queued'), or(eq(jobs.attempts, 0), lte(jobs.runAt, app.ctx.clock.now()))),
          ),
        ),
      );
    if (unsettled.length === 0) return;
    if (Date.now() > deadline) {
      throw new Error(`jobs still unsettled after ${timeoutMs} ms: ${JSON.stringify(unsettled)}`);
    }
    app.ctx.jobs.wake();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Waits until every provider event's job has been applied or has failed an attempt (settleJobs). */
export function settleProviderEvents(app: Pick<BuiltApp, 'ctx'>, timeoutMs = 30_000): Promise<void> {
  return settleJobs(app, PROVIDER_EVENT_JOBS, timeoutMs);
}
