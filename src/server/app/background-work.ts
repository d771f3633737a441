import type { FastifyBaseLogger } from 'fastify';
import type { MailMessage, MailTransport } from '../adapters/mail/mailer.js';
import type { AppContext } from '../context.js';
import { warnOfPackagesOnMissingHosts } from '../features/packages/package-sync.js';
import { scheduleReconciliation } from '../features/packages/reconcile.job.js';
import { seedDefaultPlans } from '../features/plans/plans.service.js';
import { scheduleExpiryScan } from '../features/webhooks/webhook-delivery.js';
import { jobRegistry } from '../job-registry.js';
import type { createJobRunner } from '../jobs/job-runner.js';
import type { MailJobDeps } from '../jobs/mail.job.js';
import type { Metrics } from '../observability/metrics.js';

// The work a process does besides answering requests: the durable jobs it runs and the scans that keep themselves
// queued. buildApp (app.ts) registers them before the routes; the runner starts once the routes are ready.

/** What the mailer's first attempts and the `mail` job's retries send through (counted at /metrics). */
export function mailJobDependencies(
  transport: MailTransport,
  metrics: Metrics,
  secretKey: string,
  log: FastifyBaseLogger,
): MailJobDeps {
  return {
    transport: {
      async send(message: MailMessage) {
        try {
          await transport.send(message);
        } catch (error) {
          metrics.mailAttempted('failed');
          throw error;
        }
        metrics.mailAttempted('sent');
      },
    },
    secretKey,
    log,
  };
}

/** The default plans, every kind of durable job, and the scans that keep themselves queued from here on. */
export async function registerBackgroundWork(
  ctx: AppContext,
  jobs: Pick<ReturnType<typeof createJobRunner>, 'register'>,
  mail: MailJobDeps,
): Promise<void> {
  await seedDefaultPlans(ctx);
  // Every kind of durable job this process runs; the runner starts once the routes are ready.
  jobs.register(jobRegistry({ mail }), ctx);
  await warnOfPackagesOnMissingHosts(ctx);
  // The license-expiry scan keeps itself queued from here on.
  await scheduleExpiryScan(ctx, ctx.clock.now());
  // So is the comparison of every package with its remote (tags pushed with no webhook, issue 30 item 5).
  await scheduleReconciliation(ctx);
}
