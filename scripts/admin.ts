// Admin accounts are pre-created here, never through the web (spec admin §6: admin login works only for
// pre-created accounts).
//
//   npm run admin -- create someone@example.com   create an admin, or promote an existing user (idempotent)
//   npm run admin -- list                         list the admin accounts
//
// It opens the same database the server would (DATABASE_URL, else PGlite in DATA_DIR/pglite).
import path from 'node:path';
import { z } from 'zod';
import { ConfigError, loadConfig } from '../src/server/config.js';
import { type DatabaseHandle, type DatabaseTarget, openDatabase } from '../src/server/db/client.js';
import { loadEnvFileIfPresent } from '../src/server/env-file.js';
import { createOrPromoteAdmin, listAdmins } from '../src/server/features/users/users.service.js';
import { systemClock } from '../src/server/lib/clock.js';

const USAGE = `Usage:
  npm run admin -- create <email>   create an admin account, or make an existing user an admin
  npm run admin -- list             list admin accounts`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
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
  const target: DatabaseTarget = config.databaseUrl
    ? { kind: 'postgres', url: config.databaseUrl }
    : { kind: 'pglite', dataDir: path.join(config.dataDir, 'pglite') };
  const database = await open(target);
  if (!database) return 1;

  try {
    const deps = { db: database.db, clock: systemClock };
    if (email) {
      const { user, outcome } = await createOrPromoteAdmin(deps, email);
      const message = {
        created: `Created the admin account ${user.email} (id ${user.id}).`,
        promoted: `Made the existing account ${user.email} an admin (id ${user.id}).`,
        unchanged: `${user.email} is already an admin; nothing changed.`,
      }[outcome];
      console.log(message);
      console.log(`Sign in at ${config.publicUrl}/admin/login with a magic link sent to that address.`);
      return 0;
    }
    const admins = await listAdmins(deps);
    if (admins.length === 0) {
      console.log('No admin accounts yet. Create one with: npm run admin -- create you@example.com');
      return 0;
    }
    console.log(`${admins.length} admin account${admins.length === 1 ? '' : 's'}:`);
    for (const admin of admins) {
      console.log(`  ${admin.email ?? '(no e-mail)'}  id ${admin.id}  created ${admin.createdAt.toISOString()}`);
    }
    return 0;
  } finally {
    await database.close();
  }
}

async function open(target: DatabaseTarget): Promise<DatabaseHandle | undefined> {
  const where = target.kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `the embedded database in ${target.dataDir}`;
  try {
    return await openDatabase(target);
  } catch (error) {
    console.error(`Could not open ${where}: ${(error as Error).message}`);
    if (target.kind === 'pglite') {
      // PGlite holds a lock on its directory, so this fails while the server runs on it.
      console.error(
        'The embedded database (PGlite) allows one process at a time: if the Packgate server is running, stop it, ' +
          'run this command, then start the server again. With DATABASE_URL (PostgreSQL) both can run together.',
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
