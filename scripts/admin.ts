// Admin accounts are pre-created here, never through the web (spec admin §6: admin login works only for
// pre-created accounts).
//
//   npm run admin -- create someone@example.com   create an admin, or promote an existing user (idempotent)
//   npm run admin -- list                         list the admin accounts
//   npm run admin -- backup FILE                  write a backup of the database and stored objects to FILE
//   npm run admin -- restore FILE                 restore a backup into an empty data folder or database
//
// It opens the same database the server would (DATABASE_URL, else PGlite in DATA_DIR/pglite). PGlite allows one
// process at a time: while the server runs on it, the command asks the running server instead, over the loopback
// channel whose address and secret the server keeps in DATA_DIR/local-admin.json.
import path from 'node:path';
import { z } from 'zod';
import {
  type CreateLocalAdminResponse,
  LOCAL_ADMIN_ADMINS_PATH,
  type LocalAdminChannelFile,
  type LocalAdminList,
} from '../src/contract/local-admin.js';
import { ConfigError, loadConfig } from '../src/server/config.js';
import { type DatabaseHandle, type DatabaseTarget, openDatabase } from '../src/server/db/client.js';
import { loadEnvFileIfPresent } from '../src/server/env-file.js';
import { readLocalAdminChannel } from '../src/server/features/admin/local-admin.service.js';
import { createOrPromoteAdmin, listAdmins } from '../src/server/features/users/users.service.js';
import { systemClock } from '../src/server/lib/clock.js';
import { backupCommand, restoreCommand } from './backup-commands.js';

const USAGE = `Usage:
  npm run admin -- create <email>   create an admin account, or make an existing user an admin
  npm run admin -- list             list admin accounts
  npm run admin -- backup <file>    write a backup (database and stored objects) to <file>, also while the server runs
  npm run admin -- restore <file>   restore a backup into an empty data folder or database`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'backup' || command === 'restore') {
    if (rest.length !== 1 || !rest[0]) {
      console.error(USAGE);
      return 2;
    }
    loadEnvFileIfPresent();
    const config = loadConfig();
    return command === 'backup' ? backupCommand(config, rest[0]) : restoreCommand(config, rest[0]);
  }
  if (command !== 'create' && command !== 'list') {
    console.error(USAGE);
    return 2;
  }
  let email: string | undefined;
  if (command === 'create') {
    const parsed = z.email().safeParse(rest[0]?.trim());
    if (!parsed.success || rest.length !== 1) {
      console.error(rest[0] ? `Not an e-mail address: ${rest[0]}\n\n${USAGE}` : USAGE);
      return 2;
    }
    email = parsed.data;
  }

  loadEnvFileIfPresent();
  const config = loadConfig();
  const signInHint = `Sign in at ${config.publicUrl}/admin/login with a magic link sent to that address.`;
  const channel = config.databaseUrl ? undefined : readLocalAdminChannel(config.dataDir);
  if (channel) {
    const code = await askRunningServer(channel, email, signInHint);
    if (code !== undefined) return code;
    // Nobody answered: the file is left from a server that stopped without removing it; open the database.
  }

  const target: DatabaseTarget = config.databaseUrl
    ? { kind: 'postgres', url: config.databaseUrl }
    : { kind: 'pglite', dataDir: path.join(config.dataDir, 'pglite') };
  const database = await open(target);
  if (!database) return 1;

  try {
    const deps = { db: database.db, clock: systemClock };
    if (email) {
      const { user, outcome } = await createOrPromoteAdmin(deps, email);
      printCreated({ outcome, admin: { id: user.id, email: user.email, createdAt: user.createdAt.toISOString() } });
      console.log(signInHint);
      return 0;
    }
    printAdmins((await listAdmins(deps)).map((admin) => ({ ...admin, createdAt: admin.createdAt.toISOString() })));
    return 0;
  } finally {
    await database.close();
  }
}

function printCreated({ outcome, admin }: CreateLocalAdminResponse): void {
  const message = {
    created: `Created the admin account ${admin.email} (id ${admin.id}).`,
    promoted: `Made the existing account ${admin.email} an admin (id ${admin.id}).`,
    unchanged: `${admin.email} is already an admin; nothing changed.`,
  }[outcome];
  console.log(message);
}

function printAdmins(admins: LocalAdminList): void {
  if (admins.length === 0) {
    console.log('No admin accounts yet. Create one with: npm run admin -- create you@example.com');
    return;
  }
  console.log(`${admins.length} admin account${admins.length === 1 ? '' : 's'}:`);
  for (const admin of admins) {
    console.log(`  ${admin.email ?? '(no e-mail)'}  id ${admin.id}  created ${admin.createdAt}`);
  }
}

/**
 * Creates (with an e-mail) or lists the admins through the running server; undefined when no server answers at the
 * channel's address, so that the caller opens the database itself.
 */
async function askRunningServer(
  channel: LocalAdminChannelFile,
  email: string | undefined,
  signInHint: string,
): Promise<number | undefined> {
  let response: Response;
  try {
    response = await fetch(new URL(LOCAL_ADMIN_ADMINS_PATH, channel.url), {
      method: email ? 'POST' : 'GET',
      headers: {
        authorization: `Bearer ${channel.secret}`,
        ...(email ? { 'content-type': 'application/json' } : {}),
      },
      body: email ? JSON.stringify({ email }) : undefined,
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    if (isConnectionRefused(error)) return undefined;
    console.error(`The running Packgate server at ${channel.url} did not answer: ${(error as Error).message}`);
    return 1;
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => undefined)) as { message?: string } | undefined;
    console.error(`The running Packgate server refused (${response.status}): ${body?.message ?? response.statusText}`);
    return 1;
  }
  if (email) {
    printCreated((await response.json()) as CreateLocalAdminResponse);
    console.log(signInHint);
  } else {
    printAdmins((await response.json()) as LocalAdminList);
  }
  return 0;
}

function isConnectionRefused(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } }).cause;
  return cause?.code === 'ECONNREFUSED';
}

async function open(target: DatabaseTarget): Promise<DatabaseHandle | undefined> {
  const where = target.kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `the embedded database in ${target.dataDir}`;
  try {
    return await openDatabase(target);
  } catch (error) {
    console.error(`Could not open ${where}: ${(error as Error).message}`);
    if (target.kind === 'pglite') {
      // PGlite holds a lock on its directory, so this fails while a server runs on it that did not publish its
      // local admin channel (an older version, or DATA_DIR not writable).
      console.error(
        'The embedded database (PGlite) allows one process at a time, and no running Packgate server answered at ' +
          'DATA_DIR/local-admin.json: stop the server, run this command, then start it again. With DATABASE_URL ' +
          '(PostgreSQL) both can run together.',
      );
    }
    return undefined;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof ConfigError) console.error(error.message);
    else console.error(error);
    process.exitCode = 1;
  },
);
