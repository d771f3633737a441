import type { AppContext } from './context.js';
import { accountEraseJob } from './features/accounts/account-erase.job.js';
import { cacheClearJob } from './features/admin/cache.jobs.js';
import { billingEventJob } from './features/billing/billing-event.job.js';
import { advisoryNoticesJob } from './features/lifecycle/advisory-notices.job.js';
import { distBuildJob } from './features/packages/dist-build.job.js';
import { reconcileJob } from './features/packages/reconcile.job.js';
import { syncPackageJob } from './features/packages/sync-package.job.js';
import { connectEventJob } from './features/sales/connect-event.job.js';
import { webhookDeliveryJob, webhookExpiryScanJob, webhookSingleAttemptJob } from './features/webhooks/webhook.jobs.js';
import { type AnyJobDefinition, withOwnDeps } from './jobs/job-definition.js';
import { type MailJobDeps, mailJob } from './jobs/mail.job.js';

// Every kind of durable job this app runs (issue 29 item 5), each defined beside its domain; the composition root
// hands this registry to the runner (app.ts). A new kind is added here, and its payload type to JobPayloads by
// module augmentation in its own file.

export function jobRegistry(deps: { mail: MailJobDeps }): readonly AnyJobDefinition<AppContext>[] {
  return [
    withOwnDeps(mailJob, deps.mail),
    syncPackageJob,
    reconcileJob,
    distBuildJob,
    cacheClearJob,
    advisoryNoticesJob,
    webhookDeliveryJob,
    webhookSingleAttemptJob,
    webhookExpiryScanJob,
    connectEventJob,
    billingEventJob,
    accountEraseJob,
  ];
}
