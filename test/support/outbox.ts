import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Reads the .eml files the app wrote (newest last), decoding quoted-printable bodies. */
export function readOutbox(dataDir: string): { to: string; subject: string; body: string }[] {
  const folder = path.join(dataDir, 'outbox');
  let files: string[] = [];
  try {
    files = readdirSync(folder)
      .filter((file) => file.endsWith('.eml'))
      .sort();
  } catch {
    return [];
  }
  return files.map((file) => {
    const raw = readFileSync(path.join(folder, file), 'utf8');
    const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'mi').exec(raw)?.[1]?.trim() ?? '';
    const decoded = raw
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    return { to: header('To'), subject: header('Subject'), body: decoded };
  });
}

/** The mails the app wrote to `address`, oldest first. */
export function mailsTo(dataDir: string, address: string): { to: string; subject: string; body: string }[] {
  return readOutbox(dataDir).filter((mail) => mail.to.includes(address));
}

/** The newest mail to `address`; throws when there is none. */
export function lastMailTo(dataDir: string, address: string): { to: string; subject: string; body: string } {
  const mail = mailsTo(dataDir, address).at(-1);
  if (!mail) throw new Error(`No mail to ${address} in the outbox`);
  return mail;
}

export function findLink(body: string, pattern: RegExp): string {
  const match = body.match(pattern);
  if (!match) throw new Error(`No link matching ${pattern} in:\n${body}`);
  return match[0];
}

/**
 * The license e-mail's setup commands as a holder copies them: every `composer ...` line, once, before the snippets
 * for CI, deployments and update bots (which name other tokens and other places).
 */
export function setupCommandsIn(body: string): string[] {
  const [setup = ''] = body.split('For CI, deployments and update bots');
  return [
    ...new Set(
      setup
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter((line) => line.startsWith('composer ')),
    ),
  ];
}
