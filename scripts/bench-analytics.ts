// npm run bench:analytics: how long each seller analytics endpoint takes with 1,000,000 downloads (issue 14: each
// must stay within 200 ms).
//
// One seller with 20 packages, 2,000 license holders and about 5,000 licenses; BENCH_DOWNLOADS (1,000,000) downloads
// over the last 400 days, skewed as real traffic is: a few holders (CI pipelines without a cache) download far more
// than the rest, more downloads in recent months, newer versions more often lately, most tokens from one or two
// networks and a few from many. Rows are inserted in batches of 50,000 through the downloads table itself, so the
// rollup trigger does its real work. Each endpoint is then asked once to warm up and BENCH_REPEAT (7) times; the
// median and the slowest are printed.
//
// Runs on PGlite, as on a fresh machine, and again on PostgreSQL when BENCH_DATABASE_URL (or TEST_DATABASE_URL) names a
// server whose user may create databases: a temporary database is created and dropped.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../src/server/app.js';
import { loadConfig } from '../src/server/config.js';
import type { DatabaseTarget } from '../src/server/db/client.js';
import { customers, grants, packages, sessions, users } from '../src/server/db/schema/index.js';
import { sessionCookieName } from '../src/server/http/session.js';
import { generateToken, sha256Hex } from '../src/server/lib/crypto.js';

const DOWNLOADS = Number(process.env.BENCH_DOWNLOADS ?? 1_000_000);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 7);
const BATCH = 50_000;
const PACKAGES = 20;
const HOLDERS = 2_000;
const BUDGET_MS = 200;

type DatabaseRun = { target: DatabaseTarget; label: string; drop(): Promise<void> };

function databaseRuns(): Array<() => Promise<DatabaseRun>> {
  const runs: Array<() => Promise<DatabaseRun>> = [];
  if (process.env.BENCH_SKIP_PGLITE !== '1') {
    runs.push(async () => ({ target: { kind: 'pglite' }, label: 'PGlite (embedded)', drop: async () => {} }));
  }
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (adminUrl) runs.push(() => temporaryPostgres(adminUrl));
  return runs;
}

async function temporaryPostgres(adminUrl: string): Promise<DatabaseRun> {
  const name = `packgate_bench_analytics_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    target: { kind: 'postgres', url: url.toString() },
    label: 'PostgreSQL',
    async drop() {
      if (process.env.BENCH_KEEP_DATABASE === '1') return console.log(`  kept database ${name}`);
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

type Built = Awaited<ReturnType<typeof buildApp>>;

/** The seller, packages, holders and licenses; returns the seller id, a busy holder's e-mail and a package id. */
async function seedCatalogue(built: Built) {
  const db = built.ctx.db;
  const [seller] = await db
    .insert(users)
    .values({ userType: 'seller', email: 'analytics@bench.test', slug: 'analytics-bench', displayName: 'Bench' })
    .returning();
  const sellerId = seller!.id;
  const packageRows = await db
    .insert(packages)
    .values(
      Array.from({ length: PACKAGES }, (_, index) => ({
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
      Array.from({ length: HOLDERS }, (_, index) => ({
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
        packageId: packageRows[(index * 7 + offset * 3) % PACKAGES]!.id,
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

/** Inserts the downloads in batches through the downloads table (so the rollup trigger runs), skewed as described. */
async function seedDownloads(built: Built, sellerId: string): Promise<void> {
  const db = built.ctx.db;
  await db.execute(sql`create temporary table bench_grants as
    select row_number() over (order by g.id) as idx, g.id as grant_id, g.package_id, g.customer_id
    from grants g join customers c on c.id = g.customer_id where c.seller_id = ${sellerId}`);
  await db.execute(sql`create index on bench_grants (idx)`);
  const now = new Date().toISOString();
  for (let done = 0; done < DOWNLOADS; done += BATCH) {
    const size = Math.min(BATCH, DOWNLOADS - done);
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
    process.stdout.write(`\r  seeded ${(done + size).toLocaleString('en-US')} downloads`);
  }
  process.stdout.write('\n');
  await db.execute(sql`drop table bench_grants`);
}

async function rowCount(built: Built, table: string): Promise<number> {
  const result = (await built.ctx.db.execute(sql.raw(`select count(*)::int as n from ${table}`))) as unknown as {
    rows: { n: number }[];
  };
  return Number(result.rows[0]?.n ?? 0);
}

async function timeRequest(baseUrl: string, cookie: string, pathname: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(new URL(pathname, baseUrl), { headers: { cookie } });
  await response.arrayBuffer();
  const elapsed = performance.now() - started;
  if (response.status !== 200) throw new Error(`${pathname} answered ${response.status}`);
  return elapsed;
}

async function benchmark(database: DatabaseRun): Promise<boolean> {
  const workDir = await mkdtemp(path.join(tmpdir(), 'packgate-bench-analytics-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: path.join(workDir, 'data'),
    LOG_LEVEL: 'silent',
    SECRET_KEY: randomBytes(32).toString('hex'),
    OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
  });
  const built = await buildApp({ config, database: database.target, logger: false });
  let isWithinBudget = true;
  try {
    const address = await built.app.listen({ port: 0, host: '127.0.0.1' });
    console.log(`\n== ${database.label}: ${DOWNLOADS.toLocaleString('en-US')} downloads`);
    const seedStarted = performance.now();
    const { sellerId, packageId, grantCount } = await seedCatalogue(built);
    await seedDownloads(built, sellerId);
    if (database.target.kind === 'postgres') await built.ctx.db.execute(sql`analyze`); // what autovacuum does
    console.log(
      `  seeded in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s: ${PACKAGES} packages, ${HOLDERS} holders, ${grantCount} licenses`,
    );
    for (const table of [
      'downloads',
      'download_package_days',
      'download_grant_days',
      'download_holder_days',
      'grant_last_downloads',
    ]) {
      console.log(`  ${table}: ${(await rowCount(built, table)).toLocaleString('en-US')} rows`);
    }

    const cookieValue = generateToken('pgs');
    const now = new Date();
    await built.ctx.db.insert(sessions).values({
      idHash: sha256Hex(cookieValue),
      userId: sellerId,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + 86_400_000),
    });
    const cookie = `${sessionCookieName(built.ctx)}=${cookieValue}`;
    const top = (
      (await await fetch(new URL('/api/analytics/top-holders?period=365&limit=1', address), {
        headers: { cookie },
      }).then((response) => response.json())) as { email: string }[]
    )[0]!;

    const endpoints = [
      '/api/analytics/dashboard',
      '/api/analytics/downloads?period=30&bucket=day',
      '/api/analytics/downloads?period=90&bucket=week',
      '/api/analytics/downloads?period=365&bucket=day',
      '/api/analytics/downloads?period=365&bucket=week',
      `/api/analytics/downloads?period=365&packageId=${packageId}`,
      `/api/analytics/downloads?period=365&holder=${encodeURIComponent(top.email)}`,
      '/api/analytics/versions',
      `/api/analytics/versions?packageId=${packageId}`,
      '/api/analytics/top-holders?period=30',
      '/api/analytics/top-holders?period=365',
      '/api/analytics/stale-holders?months=6',
      '/api/analytics/sharing?period=30',
      '/api/analytics/sharing?period=365',
      '/api/analytics/export/top-holders?period=365&limit=100',
      '/api/analytics/export/versions',
    ];
    console.log(`  endpoint (median / slowest of ${REPEAT}, after one warm-up request)`);
    for (const endpoint of endpoints) {
      await timeRequest(address, cookie, endpoint);
      const times: number[] = [];
      for (let run = 0; run < REPEAT; run++) times.push(await timeRequest(address, cookie, endpoint));
      times.sort((a, b) => a - b);
      const median = times[Math.floor(times.length / 2)]!;
      const slowest = times[times.length - 1]!;
      if (median > BUDGET_MS) isWithinBudget = false;
      console.log(
        `  ${median.toFixed(1).padStart(7)} ms / ${slowest.toFixed(1).padStart(7)} ms  ${endpoint.replace(/=[0-9a-f-]{36}/, '={id}').replace(/holder=[^&]+/, 'holder={busiest}')}${median > BUDGET_MS ? '  OVER 200 ms' : ''}`,
      );
    }
  } finally {
    await built.close();
    await database.drop();
    await rm(workDir, { recursive: true, force: true });
  }
  return isWithinBudget;
}

let allWithinBudget = true;
for (const run of databaseRuns()) {
  const database = await run();
  if (!(await benchmark(database))) allWithinBudget = false;
}
console.log(
  allWithinBudget
    ? `\nEvery endpoint answered within ${BUDGET_MS} ms (median).`
    : `\nSome endpoint took over ${BUDGET_MS} ms (median).`,
);
