import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type SQL, sql } from 'drizzle-orm';
import { rowsOf } from './result-rows.js';

/** What these functions need of a database (client.ts's Database, which imports this module). */
type Database = { execute(query: SQL): PromiseLike<unknown> };

// The schema's version is the migrations applied to it. Drizzle's migrator records each one in
// drizzle.__drizzle_migrations by its hash and its journal time (`created_at` = the journal entry's `when`), and
// applies every migration of the code's journal newer than the newest recorded. A database migrated by a newer
// Packgate holds a migration this code does not know: the migrator would apply nothing and the server would run
// against a schema it was not written for. These functions name both versions, so that start-up, `npm run migrate`
// and a restore can refuse it.

type JournalEntry = { idx: number; when: number; tag: string };

/** The code's migrations, oldest first (meta/_journal.json in the migrations folder). */
export function readJournal(migrationsFolder: string): JournalEntry[] {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
    entries: JournalEntry[];
  };
  return journal.entries;
}

/** A schema version: how many migrations, and the newest one's name when known. */
export type SchemaVersion = { version: number; migration: string };

export function describeSchemaVersion({ version, migration }: SchemaVersion): string {
  return `schema version ${version} (${migration})`;
}

/** The newest schema this code can migrate to. */
export function codeSchemaVersion(migrationsFolder: string): SchemaVersion {
  const entries = readJournal(migrationsFolder);
  return { version: entries.length, migration: entries.at(-1)?.tag ?? 'none' };
}

/** The migrations a database records; `unknown` holds those this code's journal does not have (a newer schema). */
export type DatabaseSchema = SchemaVersion & { unknown: number };

export async function databaseSchemaVersion(db: Database, migrationsFolder: string): Promise<DatabaseSchema> {
  const [exists] = rowsOf<{ present: boolean }>(
    await db.execute(sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`),
  );
  if (!exists?.present) return { version: 0, migration: 'none', unknown: 0 };
  const recorded = rowsOf<{ createdAt: string }>(
    await db.execute(
      sql`select created_at::text as "createdAt" from drizzle.__drizzle_migrations order by created_at, id`,
    ),
  ).map((row) => Number(row.createdAt));
  const byTime = new Map(readJournal(migrationsFolder).map((entry) => [entry.when, entry.tag]));
  const newest = recorded.at(-1);
  const unknown = recorded.filter((when) => !byTime.has(when)).length;
  const migration =
    newest === undefined
      ? 'none'
      : (byTime.get(newest) ?? `a migration of ${new Date(newest).toISOString()} unknown to this Packgate`);
  return { version: recorded.length, migration, unknown };
}

export class SchemaTooNewError extends Error {
  constructor(database: SchemaVersion, code: SchemaVersion) {
    super(
      `The database's schema is newer than this Packgate: the database is at ${describeSchemaVersion(database)}, ` +
        `this Packgate knows up to ${describeSchemaVersion(code)}. Run the Packgate release that migrated the ` +
        'database (or a newer one); an older release cannot run on it.',
    );
    this.name = 'SchemaTooNewError';
  }
}

/** Throws SchemaTooNewError when the database records a migration the code does not know. */
export async function assertSchemaNotNewer(db: Database, migrationsFolder: string): Promise<void> {
  const database = await databaseSchemaVersion(db, migrationsFolder);
  const code = codeSchemaVersion(migrationsFolder);
  if (database.unknown > 0 || database.version > code.version) throw new SchemaTooNewError(database, code);
}

/**
 * A migrations folder holding the code's first `count` migrations, for migrating a restored database to the schema
 * its backup was made at; the caller removes it.
 */
export function partialMigrationsFolder(migrationsFolder: string, count: number): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'packgate-migrations-'));
  try {
    const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
      entries: JournalEntry[];
    };
    const entries = journal.entries.slice(0, count);
    mkdirSync(path.join(folder, 'meta'));
    writeFileSync(path.join(folder, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries }));
    for (const entry of entries) {
      copyFileSync(path.join(migrationsFolder, `${entry.tag}.sql`), path.join(folder, `${entry.tag}.sql`));
    }
    return folder;
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
}
