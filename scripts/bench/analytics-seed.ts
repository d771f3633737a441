import { sql } from 'drizzle-orm';
import type { AppContext } from '../../src/server/context.js';
import type { Database } from '../../src/server/db/client.js';
import { customers, grants, packages } from '../../src/server/db/schema/index.js';
import { loadDownloadsWithoutRollups } from '../../src/server/features/analytics/download-rollups.repository.js';
import { sha256Hex } from '../../src/server/lib/crypto.js';
import { seedSeller } from './seed.js';

// The seller whose analytics npm run bench:analytics measures: 20 packages, 2,000 license holders, about 5,000
// licenses, and as many downloads as asked for over the last 400 days, skewed as real traffic is.

export const ANALYTICS_PACKAGES = 20;
export const ANALYTICS_HOLDERS = 2_000;
const BATCH = 50_000;

/** The seller, packages, holders and licenses; returns the seller id, a busy holder's e-mail and a package id. */
export async function seedAnalyticsCatalogue(ctx: AppContext) {
  const db = ctx.db;
  const sellerId = (await seedSeller(ctx, 'analytics-bench')).id;
  const packageRows = await db
    .insert(packages)
    .values(
      Array.from({ length: ANALYTICS_PACKAGES }, (_, index) => ({
        ownerId: sellerId,
        codeHost: 'local' as const,
        repositoryId: `bench/package-${index}`,
        repositoryFullName: `bench/package-${index}`,
        name: `bench/package-${index}`,
      })),
    )
    .returning({ id: packages.id });
  const holderRows = await db
    .insert(customers)
    .values(
      Array.from({ length: ANALYTICS_HOLDERS }, (_, index) => ({
        sellerId,
        email: `holder-${index}@bench.test`,
        tokenHash: sha256Hex(`bench-holder-${index}`),
      })),
    )
    .returning({ id: customers.id });
  // One to four packages each, about 5,000 licenses; a few have expired, a few are revoked.
  const grantValues: (typeof grants.$inferInsert)[] = [];
  holderRows.forEach((holder, index) => {
    const count = 1 + (index % 4);
    for (let offset = 0; offset < count; offset++) {
      grantValues.push({
        customerId: holder.id,
        packageId: packageRows[(index * 7 + offset * 3) % ANALYTICS_PACKAGES]!.id,
        kind: index % 3 === 0 ? 'purchase' : 'manual',
        expiresAt: index % 50 === 0 ? new Date(Date.now() - 86_400_000) : null,
        status: index % 97 === 0 ? 'revoked' : 'active',
      });
    }
  });
  for (let start = 0; start < grantValues.length; start += 1_000) {
    await db.insert(grants).values(grantValues.slice(start, start + 1_000));
  }
  return { sellerId, packageId: packageRows[0]!.id, grantCount: grantValues.length };
}

/**
 * How the downloads go in: `bulk` (the default) with the rollup trigger off and the rollups rebuilt from the whole table
 * afterwards (download-rollups.repository.ts; its test shows both paths leave the same rollups), `trigger` through the
 * trigger in batches of 50,000 as the product's own inserts do. 10,000,000 downloads take hours through the trigger.
 */
export type SeedPath = 'bulk' | 'trigger';

/** Inserts the downloads in batches, skewed as described, by the given path. */
export async function seedAnalyticsDownloads(
  ctx: AppContext,
  sellerId: string,
  total: number,
  onProgress: (done: number) => void = () => {},
  path: SeedPath = 'bulk',
): Promise<void> {
  if (path === 'trigger') return insertSkewedDownloads(ctx.db, sellerId, total, onProgress);
  await loadDownloadsWithoutRollups(ctx.db, (db) => insertSkewedDownloads(db, sellerId, total, onProgress));
}

async function insertSkewedDownloads(
  db: Database,
  sellerId: string,
  total: number,
  onProgress: (done: number) => void,
): Promise<void> {
  await db.execute(sql`create temporary table bench_grants as
    select row_number() over (order by g.id) as idx, g.id as grant_id, g.package_id, g.customer_id
    from grants g join customers c on c.id = g.customer_id where c.seller_id = ${sellerId}`);
  await db.execute(sql`create index on bench_grants (idx)`);
  const now = new Date().toISOString();
  for (let done = 0; done < total; done += BATCH) {
    const size = Math.min(BATCH, total - done);
    // idx: a power law over licenses (the first few download most); age: more downloads lately; network: the
    // holder's one or two usual /24s, and for one licence in 40 any of thirty.
    await db.execute(sql`
      insert into downloads (grant_id, package_id, version, downloaded_at, client_network)
      select g.grant_id, g.package_id,
        case when s.age < 30 then '2.1.0' when s.age < 120 then (case when s.r < 0.7 then '2.0.0' else '1.4.0' end)
             when s.age < 250 then '1.4.0' else '1.0.0' end,
        ${now}::timestamptz - make_interval(secs => s.age * 86400),
        case when g.idx % 40 = 0 then '10.' || (g.idx % 200) || '.' || floor(s.r * 30)::int || '.0/24'
             else '10.' || (g.idx % 200) || '.' || (g.customer_id::text < '8')::int || '.0/24' end
      from (
        select least(floor(power(random(), 4) * (select count(*) from bench_grants))::int + 1,
                     (select count(*) from bench_grants)::int) as idx,
               400 * power(random(), 1.6) as age,
               random() as r
        from generate_series(1, ${size})
      ) s join bench_grants g on g.idx = s.idx`);
    onProgress(done + size);
  }
  await db.execute(sql`drop table bench_grants`);
}
