import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { DatabaseTarget } from '../../src/server/db/client.js';
import { createDatabaseFromTemplate } from './database-template.js';
import { testDatabaseKind } from './test-app.js';

// Where a backup test restores to: an empty database of the suite's kind (PGlite in a folder, or a fresh PostgreSQL
// database) and an empty data folder, both removed with the test's other removals.

export type RestoreTarget = { dataDir: string; database: DatabaseTarget; env: Record<string, string> };

/** An empty database and data folder under `parentDir`; `env` (a bucket's settings) is passed on to the restore. */
export async function emptyRestoreTarget(
  parentDir: string,
  removals: Array<() => Promise<void>>,
  env: Record<string, string> = {},
): Promise<RestoreTarget> {
  const dataDir = mkdtempSync(path.join(parentDir, 'target-'));
  removals.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  if (testDatabaseKind() === 'pglite') {
    return { dataDir, database: { kind: 'pglite', dataDir: path.join(dataDir, 'pglite') }, env: { ...env } };
  }
  const created = await createDatabaseFromTemplate(process.env.TEST_DATABASE_URL!, 'template1');
  removals.push(created.drop);
  return { dataDir, database: { kind: 'postgres', url: created.url }, env: { ...env, DATABASE_URL: created.url } };
}
