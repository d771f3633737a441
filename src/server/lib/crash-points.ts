import type { Config } from '../config.js';

// Named steps of work that must survive a process dying anywhere in it (a sale's fulfilment, a refund, a renewal).
// The crash-point test (PACKGATE_TEST_CRASH_AT={step}) makes the process kill itself with SIGKILL when it reaches
// the step, as a power cut or the OOM killer would, and proves that the work is finished once the process runs
// again. Without the setting these calls do nothing.

export type CrashPoint =
  /** A provider's event is stored (delivery claimed, its job queued) and about to be answered 200. */
  | 'event-recorded'
  /** Inside the fulfilment's transaction: the sale is claimed as paid. */
  | 'sale-paid'
  /** Inside it: the buyer's grant is written. */
  | 'grant-created'
  /** Inside it: the license e-mail is queued. */
  | 'mail-queued'
  /** Inside it: the outgoing webhook event (purchase.completed) is queued; the next statement commits. */
  | 'webhook-queued'
  /** The fulfilment committed; the e-mail is not sent and the event's job not yet marked done. */
  | 'sale-fulfilled'
  /** The license e-mail was sent; the event's job not yet marked done. */
  | 'mail-sent'
  /** Inside a refund's transaction: the sale is marked refunded (its grant not yet revoked). */
  | 'sale-ended'
  /** The refund committed (sale refunded, grant revoked); the event's job not yet marked done. */
  | 'refund-applied'
  /** Inside a renewal's transaction: the renewal's sale (with its fee) is written. */
  | 'renewal-recorded'
  /** The renewal committed (its sale, the grant's new end); the event's job not yet marked done. */
  | 'renewal-applied';

/** Kills the process at once (SIGKILL: no handler, no flush) when the configuration names this step. */
export function crashPoint(ctx: { config: Pick<Config, 'testCrashAt'> }, step: CrashPoint): void {
  if (ctx.config.testCrashAt !== step) return;
  process.kill(process.pid, 'SIGKILL');
}
