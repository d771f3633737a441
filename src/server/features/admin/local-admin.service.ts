import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import {
  type CreateLocalAdminResponse,
  type LocalAdminChannelFile,
  type LocalAdminList,
  localAdminChannelFile,
} from '../../../contract/local-admin.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { safeEqual } from '../../lib/crypto.js';
import { createOrPromoteAdmin, listAdmins, type User } from '../users/users.service.js';

// First admin while the server runs: `npm run admin -- create` cannot open PGlite beside the server (one process
// at a time), so it asks the running server instead. The server writes where it listens and a fresh secret to
// DATA_DIR/local-admin.json (mode 0600: whoever may read it may open the database anyway) and answers
// /api/local-admin/* only to a request from this machine that carries that secret and came through no proxy.

export function localAdminChannelPath(dataDir: string): string {
  return path.join(dataDir, 'local-admin.json');
}

/** The loopback URL that reaches a server listening on `address` from the same machine. */
export function localUrlFor(address: AddressInfo): string {
  const host =
    address.address === '0.0.0.0' || address.address === '::'
      ? '127.0.0.1'
      : address.family === 'IPv6'
        ? `[${address.address}]`
        : address.address;
  return `http://${host}:${address.port}`;
}

export type LocalAdminChannel = {
  /** Writes the channel file once the server listens; replaces one a previous run left behind. */
  publish(address: AddressInfo): void;
  /** Removes the channel file if it is still this process's. */
  withdraw(): void;
  /** Throws unless the request may use the channel. */
  authorize(request: LocalRequest): void;
};

/** What the channel checks of a request: the raw socket's addresses (never X-Forwarded-For) and the headers. */
export type LocalRequest = {
  remoteAddress: string | undefined;
  localAddress: string | undefined;
  headers: Record<string, string | string[] | undefined>;
};

const isLoopback = (address: string) =>
  address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');

export function createLocalAdminChannel(ctx: Pick<AppContext, 'config' | 'log'>): LocalAdminChannel {
  const secret = randomBytes(32).toString('base64url');
  const file = localAdminChannelPath(ctx.config.dataDir);
  let isPublished = false;
  return {
    publish(address) {
      const content: LocalAdminChannelFile = { url: localUrlFor(address), secret, pid: process.pid };
      try {
        mkdirSync(path.dirname(file), { recursive: true });
        const temporary = `${file}.${process.pid}.tmp`;
        writeFileSync(temporary, `${JSON.stringify(content)}\n`, { mode: 0o600 });
        renameSync(temporary, file);
        isPublished = true;
      } catch (error) {
        ctx.log.warn({ err: error }, 'could not write the local admin channel; stop the server to run npm run admin');
      }
    },
    withdraw() {
      if (!isPublished) return;
      isPublished = false;
      if (readLocalAdminChannel(ctx.config.dataDir)?.secret === secret) rmSync(file, { force: true });
    },
    authorize(request) {
      const remote = request.remoteAddress ?? '';
      const isSameMachine = isLoopback(remote) || (remote !== '' && remote === request.localAddress);
      // A reverse proxy on this machine connects from loopback too: a forwarded request came from elsewhere.
      const isProxied = Boolean(request.headers['x-forwarded-for'] || request.headers.forwarded);
      if (!isSameMachine || isProxied) {
        throw new AppError('FORBIDDEN', 'This endpoint answers only the admin command on the server machine.');
      }
      const header = request.headers.authorization;
      const sent = typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7).trim() : '';
      if (!isPublished || !safeEqual(sent, secret)) {
        throw new AppError('UNAUTHENTICATED', 'Send the secret from DATA_DIR/local-admin.json as a bearer token.');
      }
    },
  };
}

/** The channel file a running server wrote, or undefined when there is none (or it is unreadable). */
export function readLocalAdminChannel(dataDir: string): LocalAdminChannelFile | undefined {
  let text: string;
  try {
    text = readFileSync(localAdminChannelPath(dataDir), 'utf8');
  } catch {
    return undefined;
  }
  if (text.length > 4096) return undefined;
  try {
    const parsed = localAdminChannelFile.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

const presentAdmin = (user: User) => ({ id: user.id, email: user.email, createdAt: user.createdAt.toISOString() });

/** POST /api/local-admin/admins: creates an admin, or makes an existing user one (idempotent). */
export async function createAdminLocally(
  ctx: Pick<AppContext, 'db' | 'clock'>,
  email: string,
): Promise<CreateLocalAdminResponse> {
  const { user, outcome } = await createOrPromoteAdmin(ctx, email);
  return { outcome, admin: presentAdmin(user) };
}

/** GET /api/local-admin/admins: the admin accounts, oldest first. */
export async function listAdminsLocally(ctx: Pick<AppContext, 'db' | 'clock'>): Promise<LocalAdminList> {
  return (await listAdmins(ctx)).map(presentAdmin);
}
