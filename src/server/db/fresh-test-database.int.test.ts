import { count } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createGrant, createHolder, createPackage, createSeller } from '../../../test/composer/repository-fixtures.js';
import { startTestApp, type TestApp, testDatabaseKind } from '../../../test/support/test-app.js';
import { downloads, users } from './schema/index.js';

// Every test app starts on an empty migrated database, whichever way the suite provides it: a copy of the run's
// template on PostgreSQL, a PGlite from the worker's pool on PGlite (emptied when the app before it closed).

/** A seller, a package, a holder with a grant and one download; returns the download's id (a bigserial). */
async function recordDownload(app: TestApp): Promise<number> {
  const seller = await createSeller(app, 'acme');
  const pkg = await createPackage(app, seller, 'acme/widget', [
    { version: 'v1.0.0', releasedAt: '2026-01-10T10:00:00Z' },
  ]);
  const grant = await createGrant(app, await createHolder(app, seller), pkg);
  const [row] = await app.ctx.db
    .insert(downloads)
    .values({ grantId: grant.id, packageId: pkg.id, version: '1.0.0' })
    .returning({ id: downloads.id });
  return row!.id;
}

describe('a test app’s database', () => {
  it('holds nothing the app before it wrote, and numbers rows from the start again', async () => {
    const first = await startTestApp();
    const firstDatabase = first.databaseTarget;
    expect(await recordDownload(first)).toBe(1);
    await first.close();

    const second = await startTestApp();
    try {
      if (testDatabaseKind() === 'pglite' && firstDatabase?.kind === 'pglite') {
        // The pool lent the same PGlite again: what this test checks is its emptying, not a new start.
        expect(second.databaseTarget?.kind === 'pglite' && second.databaseTarget.lent?.client).toBe(
          firstDatabase.lent?.client,
        );
      }
      expect(await second.ctx.db.select({ n: count() }).from(users)).toEqual([{ n: 0 }]);
      expect(await recordDownload(second)).toBe(1);
    } finally {
      await second.close();
    }
  });
});
