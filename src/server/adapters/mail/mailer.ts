import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';

export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  fromName?: string;
  replyTo?: string;
  /** Links worth logging when mail goes to the outbox folder (the embedded default has no inbox). */
  links?: string[];
  /** What the mail is about (e.g. `grant:{id}`), so that its delivery can be shown beside it. */
  reference?: string;
};

export type MailSendOptions = {
  /** The open transaction the mail belongs to: its delivery record is written in it. */
  db?: Pick<Database, 'insert'>;
  /**
   * Only queue the message in `db`: the job runner sends it once the transaction commits (no attempt now). For mail
   * that must go exactly once with what it is about, which a process dying mid-way may have to do again.
   */
  queueOnly?: boolean;
};

/**
 * What callers use (ctx.mailer). The app's mailer is durable: a message the transport refuses is kept and
 * retried in the background, so `send` resolves once the message is delivered or safely queued.
 */
export type Mailer = { send(message: MailMessage, options?: MailSendOptions): Promise<void> };

/** One delivery attempt with the real transport (SMTP or the outbox folder); throws when it is refused. */
export type MailTransport = { send(message: MailMessage): Promise<void> };

export function outboxDir(config: Config): string {
  return path.join(config.dataDir, 'outbox');
}

type Nodemailer = typeof import('nodemailer')['default'];

type Transport = ReturnType<Nodemailer['createTransport']>;

let nodemailerLoading: Promise<Nodemailer> | undefined;

/**
 * A nodemailer transport made by the first mail that uses it, nodemailer itself loaded by the process's first mail
 * (issue 34 item 3): about 2.8 MB of V8's heap and 13 MB resident that a server holds for nothing until someone
 * signs in or is sent a license.
 */
function transportOnFirstUse(options: Parameters<Nodemailer['createTransport']>[0]): () => Promise<Transport> {
  let transport: Promise<Transport> | undefined;
  return () => {
    nodemailerLoading ??= import('nodemailer').then((module) => module.default);
    transport ??= nodemailerLoading.then((nodemailer) => nodemailer.createTransport(options));
    return transport;
  };
}

/** SMTP when SMTP_URL is set; otherwise each message becomes an .eml file in DATA_DIR/outbox. */
export function createMailTransport(config: Config, log: FastifyBaseLogger): MailTransport {
  // A seller's brand name may replace the display name; the sending address stays the platform's.
  const fromAddress = /<([^<>]+)>/.exec(config.mailFrom)?.[1] ?? config.mailFrom;
  const fromFor = (message: MailMessage) =>
    message.fromName ? { name: message.fromName, address: fromAddress } : config.mailFrom;

  if (config.smtpUrl) {
    const transport = transportOnFirstUse(config.smtpUrl);
    return {
      async send(message) {
        await (await transport()).sendMail({ ...mailFields(message), from: fromFor(message) });
        log.info({ to: message.to, subject: message.subject }, 'mail sent');
      },
    };
  }

  const transport = transportOnFirstUse({ streamTransport: true, buffer: true, newline: 'unix' });
  const folder = outboxDir(config);
  return {
    async send(message) {
      const info = await (await transport()).sendMail({ ...mailFields(message), from: fromFor(message) });
      await mkdir(folder, { recursive: true });
      const file = path.join(folder, `${Date.now()}-${randomBytes(4).toString('hex')}.eml`);
      await writeFile(file, info.message as Buffer);
      log.info({ to: message.to, subject: message.subject, file, links: message.links }, 'mail written to outbox');
    },
  };
}

function mailFields(message: MailMessage) {
  return { to: message.to, subject: message.subject, text: message.text, html: message.html, replyTo: message.replyTo };
}
