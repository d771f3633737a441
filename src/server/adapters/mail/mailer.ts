import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Config } from '../../config.js';

export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  fromName?: string;
  replyTo?: string;
  /** Links worth logging when mail goes to the outbox folder (the embedded default has no inbox). */
  links?: string[];
};

export type Mailer = { send(message: MailMessage): Promise<void> };

export function outboxDir(config: Config): string {
  return path.join(config.dataDir, 'outbox');
}

/** SMTP when SMTP_URL is set; otherwise each message becomes an .eml file in DATA_DIR/outbox. */
export function createMailer(config: Config, log: FastifyBaseLogger): Mailer {
  // A seller's brand name may replace the display name; the sending address stays the platform's.
  const fromAddress = /<([^<>]+)>/.exec(config.mailFrom)?.[1] ?? config.mailFrom;
  const fromFor = (message: MailMessage) =>
    message.fromName ? { name: message.fromName, address: fromAddress } : config.mailFrom;

  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl);
    return {
      async send(message) {
        await transport.sendMail({ ...mailFields(message), from: fromFor(message) });
        log.info({ to: message.to, subject: message.subject }, 'mail sent');
      },
    };
  }

  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const folder = outboxDir(config);
  return {
    async send(message) {
      const info = await transport.sendMail({ ...mailFields(message), from: fromFor(message) });
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
