// `npm run migrate`: applies the database migrations this release brings, without starting the server, so that a
// deploy can migrate once before it starts (or restarts) its processes. The server also migrates when it starts;
// on PostgreSQL an advisory lock makes processes that start together migrate once. A database migrated by a newer
// release is refused, naming both schema versions.
import path from 'node:path';
import { ConfigError, loadConfig } from '../src/server/config.js';
import { type DatabaseTarget, migrationsFolder, openDatabase } from '../src/server/db/client.js';
import {
  codeSchemaVersion,
  databaseSchemaVersion,
  describeSchemaVersion,
  SchemaTooNewError,
} from '../src/server/db/schema-version.js';
import { loadEnvFileIfPresent } from '../src/server/env-file.js';

async function main(): Promise<number> {
  loadEnvFileIfPresent();
  const config = loadConfig();
  const target = (migrated: boolean): DatabaseTarget =>
    config.databaseUrl
      ? { kind: 'postgres', url: config.databaseUrl, migrated }
      : { kind: 'pglite', dataDir: path.join(config.dataDir, 'pglite'), migrated };
  const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.dataDir}/pglite`;
  let before: Awaited<ReturnType<typeof databaseSchemaVersion>>;
  try {
    const looked = await openDatabase(target(true));
    try {
      before = await databaseSchemaVersion(looked.db, migrationsFolder);
    } finally {
      await looked.close();
    }
    const migrated = await openDatabase(target(false));
    await migrated.close();
  } catch (error) {
    if (error instanceof SchemaTooNewError) {
      console.error(error.message);
      return 1;
    }
    console.error(`Could not migrate ${where}: ${(error as Error).message}`);
    if (!config.databaseUrl) {
      console.error(
        'The embedded database (PGlite) allows one process at a time: a server running on it applied the ' +
          'migrations when it started. Stop it to run npm run migrate.',
      );
    }
    return 1;
  }
  const after = codeSchemaVersion(migrationsFolder);
  const applied = after.version - before.version;
  console.log(
    applied > 0
      ? `Applied ${applied} migration${applied === 1 ? '' : 's'} to ${where}: ${describeSchemaVersion(before)} → ${describeSchemaVersion(after)}.`
      : `${where} is up to date at ${describeSchemaVersion(after)}.`,
  );
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exitCode = 1;
  },
);
