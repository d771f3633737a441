import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { MailMessage, MailTransport } from '../adapters/mail/mailer.js';
import { decryptSecret } from '../lib/crypto.js';
import { defineJob } from './job-definition.js';
import { MAIL_JOB, MAIL_MAX_ATTEMPTS } from './mail-delivery.js';

// The `mail` job: a message the first attempt could not deliver (or only queued), sealed with SECRET_KEY, retried
// with backoff until MAIL_MAX_ATTEMPTS (mail-delivery.ts says when one is queued).

const mailPayload = z.object({ sealed: z.string().min(1) });

declare module './job-definition.js' {
  interface JobPayloads {
    [MAIL_JOB]: z.infer<typeof mailPayload>;
  }
}

export type MailJobDeps = { transport: MailTransport; secretKey: string; log: FastifyBaseLogger };

export const mailJob = defineJob<MailJobDeps, typeof MAIL_JOB>({
  kind: MAIL_JOB,
  payload: mailPayload,
  maxAttempts: MAIL_MAX_ATTEMPTS,
  forgetPayloadWhenDone: true,
  async handler({ transport, secretKey }, payload) {
    const message = JSON.parse(decryptSecret(secretKey, payload.sealed)) as MailMessage;
    await transport.send(message);
    return {};
  },
  async onGiveUp({ log }, _payload, error, job) {
    log.error({ jobId: job.id, reference: job.reference, error }, 'mail could not be delivered; giving up');
  },
});
