import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
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

/** A backup test file's temporary folder, with what it restores into and removes. */
export type BackupWorkspace = {
  dir: string;
  /** Where the file's backup archive is written. */
  archive: string;
  /** Run in reverse after the file's tests, before the folder goes. */
  removals: Array<() => Promise<void>>;
  /** {@link emptyRestoreTarget} in this folder, removed with it. */
  emptyTarget(env?: Record<string, string>): Promise<RestoreTarget>;
};

/**
 * A temporary folder for one backup test file, removed after its tests with everything made in it. Call it at the
 * file's top, before the file registers its own afterAll: after-hooks run in reverse, so the file's app closes first.
 */
export function backupWorkspace(prefix: string): BackupWorkspace {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const removals: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const remove of removals.reverse()) await remove();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    dir,
    archive: path.join(dir, 'backup.tar.gz'),
    removals,
    emptyTarget: (env) => emptyRestoreTarget(dir, removals, env),
  };
}
