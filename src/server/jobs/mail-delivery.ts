import type { FastifyBaseLogger } from 'fastify';
import type { Mailer, MailTransport } from '../adapters/mail/mailer.js';
import type { Database } from '../db/client.js';
import { encryptSecret } from '../lib/crypto.js';
import type { JobRunner } from './job-runner.js';
import { findLatestJobsByReference } from './jobs.repository.js';

// Durable outgoing mail. `send` makes the first attempt at once with the real transport (a caller inside a
// transaction keeps today's order: the mail is out before the transaction ends, and the outbox file exists when
// the request answers); a refusal does not fail the caller: the message is stored as a `mail` job (sealed with
// SECRET_KEY: license mails carry a Composer token, which must not sit readable in the database) and the runner
// retries it with backoff. When the attempts run out the job stays failed, and anything the mail was about
// (its reference, e.g. `grant:{id}`) shows "not delivered".
//
// `queueOnly` skips the attempt inside the transaction: the message is only queued with what it is about, so that
// a process dying before the commit sends nothing and one dying after it leaves the job to send it (a sale's
// fulfilment, which may run again after a crash, must mail once). sendQueuedMail then makes its first attempt.

export const MAIL_JOB = 'mail';
/** The first attempt (inline) and five retries: with a 5 s base about 2.5 minutes; with the maximum delay, longer. */
export const MAIL_MAX_ATTEMPTS = 6;

export type MailDelivery = 'delivered' | 'pending' | 'failed';

export function createDurableMailer(options: {
  jobs: JobRunner;
  transport: MailTransport;
  secretKey: string;
  log: FastifyBaseLogger;
}): Mailer {
  const { jobs, transport, secretKey, log } = options;
  // The retries are the `mail` job (mail.job.ts), in the app's job registry.
  return {
    async send(message, sendOptions = {}) {
      const enqueue = { db: sendOptions.db, reference: message.reference };
      if (sendOptions.queueOnly) {
        await jobs.enqueue(MAIL_JOB, { sealed: encryptSecret(secretKey, JSON.stringify(message)) }, enqueue);
        return;
      }
      try {
        await transport.send(message);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        log.warn({ to: message.to, subject: message.subject, reason }, 'mail refused; it will be retried');
        const sealed = encryptSecret(secretKey, JSON.stringify(message));
        await jobs.recordAttempted(MAIL_JOB, { sealed }, { status: 'retry', error: reason }, enqueue);
        return;
      }
      // Only mail about something needs a record of its delivery.
      if (message.reference) await jobs.recordAttempted(MAIL_JOB, {}, { status: 'completed' }, enqueue);
    },
  };
}

/**
 * Makes the first attempt of the queued mail about `reference` here and now (after the transaction that queued it
 * committed), so that it is out when the caller answers; the runner retries it if this attempt fails.
 */
export async function sendQueuedMail(db: Database, jobs: JobRunner, reference: string): Promise<void> {
  let job = (await findLatestJobsByReference(db, [reference], MAIL_JOB)).get(reference);
  if (job?.status === 'queued') job = await jobs.runNow(job.id);
  // The runner took it first (woken by the queueing, or its poll): its attempt is as good as ours, wait for it a
  // little. Its claim may not have committed yet: runNow's claim then skipped the locked row and read it still queued,
  // never attempted (a job this attempt tried and queued again has an attempt counted). A stopping runner claims
  // nothing: the job waits for the next process, and so the caller does not.
  const isClaimInFlight = job?.status === 'queued' && job.attempts === 0 && !jobs.isStopping();
  const isTakenElsewhere = job?.status === 'running' || isClaimInFlight;
  if (job && isTakenElsewhere) await jobs.waitFor(job.id, FIRST_ATTEMPT_WAIT_MS).catch(() => undefined);
}

/** How long sendQueuedMail waits for an attempt the runner is making; the mail is safe in its job either way. */
const FIRST_ATTEMPT_WAIT_MS = 15_000;

/** The delivery of the latest mail about each reference; references without mail are absent. */
export async function findMailDeliveries(db: Database, references: string[]): Promise<Map<string, MailDelivery>> {
  const latest = await findLatestJobsByReference(db, references, MAIL_JOB);
  const deliveries = new Map<string, MailDelivery>();
  for (const [reference, job] of latest) {
    deliveries.set(
      reference,
      job.status === 'completed' ? 'delivered' : job.status === 'failed' ? 'failed' : 'pending',
    );
  }
  return deliveries;
}

/** The reference of a license's mail. */
export function grantMailReference(grantId: string): string {
  return `grant:${grantId}`;
}

/** The items (licenses, by grant id) with the delivery of the latest e-mail about each; null when none was sent. */
export async function withEmailDelivery<Item extends { id: string }>(
  db: Database,
  items: Item[],
): Promise<(Item & { emailDelivery: MailDelivery | null })[]> {
  const deliveries = await findMailDeliveries(
    db,
    items.map((item) => grantMailReference(item.id)),
  );
  return items.map((item) => ({ ...item, emailDelivery: deliveries.get(grantMailReference(item.id)) ?? null }));
}
