import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';

// The download rollups (schema/analytics.ts) are kept by the downloads table's two statement triggers: the rollups
// (migrations 0011 and 0016) and each holder's running total (0021, 0023), one aggregated statement per table. A bulk
// load of millions of rows (the analytics bench's 10,000,000) is faster without them: the triggers are switched off
// while the rows go in, and each rollup is then made anew from the whole table in one grouped pass, with the same
// rules as the triggers' (a network counted once per holder and day; the last download by time, then by id).
//
// For an offline load only (the bench and its test): switching a trigger off holds an ACCESS EXCLUSIVE lock on
// downloads until the transaction ends, so on a serving database every dist download (which inserts a row) would
// wait for the whole load, and the rebuild truncates every seller's rollups.

const ROLLUP_TABLES = [
  'download_package_days',
  'download_grant_days',
  'grant_last_downloads',
  'download_holder_day_networks',
  'download_holder_days',
] as const;

const ROLLUP_TRIGGERS = ['downloads_roll_up', 'downloads_roll_up_running'] as const;

/** Runs `load` with the rollup triggers off (inside one transaction), then rebuilds every rollup from the downloads. */
export async function loadDownloadsWithoutRollups(db: Database, load: (db: Database) => Promise<void>): Promise<void> {
  await db.transaction(async (tx) => {
    for (const trigger of ROLLUP_TRIGGERS)
      await tx.execute(sql.raw(`alter table downloads disable trigger ${trigger}`));
    await load(tx);
    for (const trigger of ROLLUP_TRIGGERS) await tx.execute(sql.raw(`alter table downloads enable trigger ${trigger}`));
    await rebuildDownloadRollups(tx);
  });
}

/** Empties the rollups and makes them again from every row of downloads. */
export async function rebuildDownloadRollups(db: Database): Promise<void> {
  await db.execute(sql.raw(`truncate ${ROLLUP_TABLES.join(', ')}`));
  await db.execute(sql`
    insert into download_package_days (package_id, day, seller_id, downloads)
    select d.package_id, (d.downloaded_at at time zone 'UTC')::date, p.owner_id, count(*)
    from downloads d join packages p on p.id = d.package_id
    group by 1, 2, 3`);
  await db.execute(sql`
    insert into download_grant_days (grant_id, day, network, seller_id, customer_id, package_id, downloads)
    select d.grant_id, (d.downloaded_at at time zone 'UTC')::date, coalesce(d.client_network, ''),
      c.seller_id, c.id, d.package_id, count(*)
    from downloads d join grants g on g.id = d.grant_id join customers c on c.id = g.customer_id
    group by 1, 2, 3, 4, 5, 6`);
  await db.execute(sql`
    insert into grant_last_downloads (grant_id, seller_id, customer_id, package_id, version, downloaded_at)
    select distinct on (d.grant_id) d.grant_id, c.seller_id, c.id, d.package_id, d.version, d.downloaded_at
    from downloads d join grants g on g.id = d.grant_id join customers c on c.id = g.customer_id
    order by d.grant_id, d.downloaded_at desc, d.id desc`);
  await db.execute(sql`
    insert into download_holder_day_networks (customer_id, day, network)
    select distinct g.customer_id, (d.downloaded_at at time zone 'UTC')::date, d.client_network
    from downloads d join grants g on g.id = d.grant_id
    where d.client_network is not null`);
  await db.execute(sql`
    insert into download_holder_days (customer_id, day, seller_id, downloads, networks)
    select c.id, (d.downloaded_at at time zone 'UTC')::date, c.seller_id, count(*), count(distinct d.client_network)
    from downloads d join grants g on g.id = d.grant_id join customers c on c.id = g.customer_id
    group by 1, 2, 3`);
  // The holder's downloads up to and including each day, as downloads_roll_up_running keeps them.
  await db.execute(sql`
    update download_holder_days t set running_downloads = s.running
    from (
      select customer_id, day, sum(downloads) over (partition by customer_id order by day) as running
      from download_holder_days
    ) s
    where t.customer_id = s.customer_id and t.day = s.day`);
}
