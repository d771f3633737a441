import { rmSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { backupCommand, restoreCommand } from '../../../../scripts/backup-commands.js';
import { createDatabaseFromTemplate } from '../../../../test/support/database-template.js';
import { backupWorkspace } from '../../../../test/support/restore-target.js';
import { testDatabaseKind } from '../../../../test/support/test-app.js';
import { loadConfig } from '../../config.js';
import { applyMigrations, type DatabaseTarget, migrationsFolder, openDatabase } from '../../db/client.js';
import { partialMigrationsFolder, readJournal } from '../../db/schema-version.js';

// An archive made before a table was renamed still restores: the restore builds the schema at the archive's
// version, loads the rows under the names the archive has, then runs the later migrations. Shown with the
// platform's plans, the table pricing_tiers until migration 0030_plans_table renamed it plans.

const { dir: work, removals } = backupWorkspace('packgate-renamed-table-');
const SECRET_KEY = 'renamed-table-test-secret-key-0123456789';

/** A data folder and an empty database of the suite's kind, and the configuration that names them. */
async function emptyInstance(name: string) {
  const dataDir = path.join(work, name);
  if (testDatabaseKind() === 'pglite') {
    const database: DatabaseTarget = { kind: 'pglite', dataDir: path.join(dataDir, 'pglite'), migrated: true };
    return { database, config: loadConfig({ DATA_DIR: dataDir, SECRET_KEY }) };
  }
  const created = await createDatabaseFromTemplate(process.env.TEST_DATABASE_URL!, 'template1');
  removals.push(created.drop);
  const database: DatabaseTarget = { kind: 'postgres', url: created.url, migrated: true };
  return { database, config: loadConfig({ DATA_DIR: dataDir, SECRET_KEY, DATABASE_URL: created.url }) };
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

async function quietly<T>(run: () => Promise<T>): Promise<T> {
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  try {
    return await run();
  } finally {
    log.mockRestore();
  }
}

describe('a backup made before pricing_tiers became plans', () => {
  it('restores its plans into the plans table', async () => {
    const beforeRename = readJournal(migrationsFolder).findIndex((entry) => entry.tag === '0030_plans_table');
    expect(beforeRename).toBeGreaterThan(0);

    const source = await emptyInstance('source');
    const folder = partialMigrationsFolder(migrationsFolder, beforeRename);
    const opened = await openDatabase(source.database);
    try {
      await applyMigrations(opened.db, opened.kind, folder);
      await opened.db.execute(
        sql`insert into pricing_tiers (id, name, price_cents, max_packages) values ('gold', 'Gold', 4900, 25)`,
      );
    } finally {
      await opened.close();
      rmSync(folder, { recursive: true, force: true });
    }
    const archive = path.join(work, 'before-rename.tar.gz');
    expect(await quietly(() => backupCommand(source.config, archive))).toBe(0);

    const target = await emptyInstance('target');
    expect(await quietly(() => restoreCommand(target.config, archive))).toBe(0);
    const restored = await openDatabase(target.database);
    try {
      const plans = rowsOf<{ name: string; priceCents: number; maxPackages: number }>(
        await restored.db.execute(
          sql`select name, price_cents as "priceCents", max_packages as "maxPackages" from plans where id = 'gold'`,
        ),
      );
      expect(plans).toEqual([{ name: 'Gold', priceCents: 4900, maxPackages: 25 }]);
      const [old] = rowsOf<{ present: boolean }>(
        await restored.db.execute(sql`select to_regclass('public.pricing_tiers') is not null as present`),
      );
      expect(old?.present).toBe(false);
    } finally {
      await restored.close();
    }
    // Three databases built from the migrations (the source, the target, the target again at the newest schema).
  }, 180_000);
});
