import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertPackage } from '../../../../test/support/packages.js';
import { signInSeller } from '../../../../test/support/sessions.js';
import { startTestApp, type TestApp } from '../../../../test/support/test-app.js';
import type { Database } from '../../db/client.js';
import { customers, grants } from '../../db/schema/index.js';
import { sha256Hex } from '../../lib/crypto.js';
import { loadDownloadsWithoutRollups, rebuildDownloadRollups } from './download-rollups.repository.js';

// The bulk path the analytics bench loads 10,000,000 downloads with must leave the rollups exactly as the trigger
// does, row for row: otherwise the bench would time queries over figures the product never has.

const ROLLUPS = {
  download_package_days: 'package_id, day, seller_id, downloads',
  download_grant_days: 'grant_id, day, network, seller_id, customer_id, package_id, downloads',
  grant_last_downloads: 'grant_id, seller_id, customer_id, package_id, version, downloaded_at',
  download_holder_day_networks: 'customer_id, day, network',
  download_holder_days: 'customer_id, day, seller_id, downloads, networks, running_downloads',
};

describe('download rollups rebuilt from the downloads', () => {
  let app: TestApp;
  let grantIds: string[];

  beforeAll(async () => {
    app = await startTestApp();
    const seller = await signInSeller(app);
    const packages = await Promise.all(
      ['acme/one', 'acme/two', 'acme/three'].map((name) => insertPackage(app, seller.user.id, name)),
    );
    const holders = await app.ctx.db
      .insert(customers)
      .values(
        Array.from({ length: 12 }, (_, index) => ({
          sellerId: seller.user.id,
          email: `holder-${index}@example.com`,
          tokenHash: sha256Hex(`rollup-holder-${index}`),
        })),
      )
      .returning({ id: customers.id });
    const rows = await app.ctx.db
      .insert(grants)
      .values(
        holders.flatMap((holder, index) =>
          packages
            .slice(0, 1 + (index % 3))
            .map((pkg) => ({ customerId: holder.id, packageId: pkg.id, kind: 'manual' as const })),
        ),
      )
      .returning({ id: grants.id });
    grantIds = rows.map((row) => row.id);
  });
  afterAll(async () => {
    await app?.close();
  });

  /** Downloads over 40 days, several per grant and day, from one to five networks (some none), in several statements. */
  async function insertDownloads(db: Database, seed: number): Promise<void> {
    for (let statement = 0; statement < 4; statement++) {
      await db.execute(sql`
        insert into downloads (grant_id, package_id, version, downloaded_at, client_network)
        select g.id, g.package_id, '1.' || (n % 4) || '.0',
          timestamptz '2026-10-01 00:00:00+00' + make_interval(hours => ((n * 37 + ${seed}::int) % 960)),
          case when n % 7 = 0 then null else '10.0.' || ((n + ${statement}::int) % 5) || '.0/24' end
        from generate_series(1, 500) n
        join (select id, package_id, (row_number() over (order by id))::int - 1 as idx from grants) g
          on g.idx = (n + ${statement}::int) % ${grantIds.length}::int`);
    }
  }

  async function snapshot(db: Database = app.ctx.db): Promise<Record<string, unknown[]>> {
    const tables: Record<string, unknown[]> = {};
    for (const [table, columns] of Object.entries(ROLLUPS)) {
      const result = (await db.execute(sql.raw(`select ${columns} from ${table} order by ${columns}`))) as unknown as {
        rows: unknown[];
      };
      tables[table] = result.rows;
    }
    return tables;
  }

  it('makes the rollups the trigger made, and a bulk load without the trigger ends with the same', async () => {
    await insertDownloads(app.ctx.db, 0);
    const byTrigger = await snapshot();
    expect(byTrigger.download_package_days!.length).toBeGreaterThan(10);
    expect(byTrigger.download_holder_day_networks!.length).toBeGreaterThan(10);

    await rebuildDownloadRollups(app.ctx.db);
    expect(await snapshot()).toEqual(byTrigger);

    // A second load on top: through the trigger (rolled back once seen), then in bulk without it. Both must agree.
    class RolledBack extends Error {}
    let bySecondTrigger: Record<string, unknown[]> = {};
    await app.ctx.db
      .transaction(async (tx) => {
        await insertDownloads(tx, 11);
        bySecondTrigger = await snapshot(tx);
        throw new RolledBack();
      })
      .catch((error: unknown) => {
        if (!(error instanceof RolledBack)) throw error;
      });
    expect(await snapshot()).toEqual(byTrigger);
    await loadDownloadsWithoutRollups(app.ctx.db, (db) => insertDownloads(db, 11));
    const byBulk = await snapshot();
    expect(byBulk).not.toEqual(byTrigger);
    expect(byBulk).toEqual(bySecondTrigger);
    const counted = (await app.ctx.db.execute(
      sql`select (select count(*) from downloads)::int as downloads, (select sum(downloads) from download_package_days)::int as rolled`,
    )) as unknown as { rows: { downloads: number; rolled: number }[] };
    expect(counted.rows[0]!.rolled).toBe(counted.rows[0]!.downloads);
  });
});
