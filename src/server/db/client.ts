import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type {
  Database,
  DatabaseHandle,
  DatabaseKind,
  DatabaseTarget,
  NotificationSubscription,
} from './database-types.js';
import { assertSchemaNotNewer } from './schema-version.js';

// Opening the database: PGlite (embedded) or PostgreSQL. Each driver lives in its own module, loaded only when a
// server opens that kind, so a process on PGlite never loads node-postgres and one on PostgreSQL never loads PGlite's
// JavaScript (issue 34 item 3: a few MB of resident memory each).

export type {
  Database,
  DatabaseHandle,
  DatabaseKind,
  DatabaseTarget,
  LentPglite,
  NotificationSubscription,
  PoolStats,
  Schema,
} from './database-types.js';

/** The code's migrations (copied beside the built server by scripts/build-server.mjs). */
export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * Applies the migrations of `folder` (the code's by default) that the database lacks, after refusing a database
 * whose schema is newer than the code (schema-version.ts). The caller serializes migrators on PostgreSQL.
 */
export async function applyMigrations(db: Database, kind: DatabaseKind, folder = migrationsFolder): Promise<void> {
  await assertSchemaNotNewer(db, migrationsFolder);
  const driver = kind === 'postgres' ? await import('./postgres-client.js') : await import('./pglite-client.js');
  await driver.migrate(db, folder);
}

/** Opens the database, applies pending migrations and returns a handle that closes it cleanly. */
export async function openDatabase(
  target: DatabaseTarget,
  notifications?: NotificationSubscription,
): Promise<DatabaseHandle> {
  const handle =
    target.kind === 'postgres'
      ? await (await import('./postgres-client.js')).openPostgres(
          target.url,
          target.migrated ?? false,
          notifications,
          (db) => applyMigrations(db, 'postgres'),
        )
      : await (await import('./pglite-client.js')).openPglite(target, notifications, (db) =>
          applyMigrations(db, 'pglite'),
        );
  kinds.set(handle.db, handle.kind);
  return handle;
}

const kinds = new WeakMap<Database, DatabaseKind>();

/** Which kind of database an open handle's `db` talks to. */
export function databaseKindOf(db: Database): DatabaseKind {
  const kind = kinds.get(db);
  if (!kind) throw new Error('This database was not opened by openDatabase');
  return kind;
}

export async function pingDatabase(db: Database): Promise<void> {
  await db.execute(sql`select 1`);
}
