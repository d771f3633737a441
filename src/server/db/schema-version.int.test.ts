import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createDatabaseFromTemplate } from '../../../test/support/database-template.js';
import { testDatabaseKind } from '../../../test/support/test-app.js';
import { type DatabaseTarget, migrationsFolder, openDatabase } from './client.js';
import { codeSchemaVersion, readJournal } from './schema-version.js';

// Schema changes on deploy: a server whose database a newer release migrated refuses to start, naming both schema
// versions; processes that start together on one PostgreSQL database apply each migration once.

const code = codeSchemaVersion(migrationsFolder);

/** A database of the suite's kind with nothing in it, and how to remove it. */
async function emptyDatabase(): Promise<{ target: DatabaseTarget; remove(): Promise<void> }> {
  if (testDatabaseKind() === 'pglite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'packgate-schema-'));
    return {
      target: { kind: 'pglite', dataDir: path.join(dir, 'pglite') },
      remove: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const database = await createDatabaseFromTemplate(process.env.TEST_DATABASE_URL!, 'template1');
  return { target: { kind: 'postgres', url: database.url }, remove: database.drop };
}

describe('starting on a database', () => {
  it('refuses one that a newer release migrated, naming both schema versions', async () => {
    const { target, remove } = await emptyDatabase();
    try {
      const first = await openDatabase(target);
      const newest = readJournal(migrationsFolder).at(-1)!.when;
      await first.db.execute(
        sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('from-a-newer-release', ${newest + 60_000})`,
      );
      await first.close();

      const refusal = await openDatabase(target).then(
        () => undefined,
        (error: Error) => error,
      );
      expect(refusal?.message).toContain(`the database is at schema version ${code.version + 1}`);
      expect(refusal?.message).toContain(
        `this Packgate knows up to schema version ${code.version} (${code.migration})`,
      );
    } finally {
      await remove();
    }
  });
});

/** PGlite allows one process: only PostgreSQL has processes that start together. */
const onPostgres = testDatabaseKind() === 'postgres' ? describe : () => {};

onPostgres('two processes starting at once on PostgreSQL', () => {
  it('apply each migration once', async () => {
    const { target, remove } = await emptyDatabase();
    try {
      const [one, two] = await Promise.all([openDatabase(target), openDatabase(target)]);
      const result = (await one.db.execute(
        sql`select count(*)::int as n, count(distinct hash)::int as distinct from drizzle.__drizzle_migrations`,
      )) as unknown as { rows: Array<{ n: number; distinct: number }> };
      expect(result.rows[0]).toEqual({ n: code.version, distinct: code.version });
      await Promise.all([one.close(), two.close()]);
    } finally {
      await remove();
    }
  });
});
