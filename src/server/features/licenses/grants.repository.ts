import { and, count, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { firstRow, totalOf } from '../../db/result-rows.js';
import { customers, downloads, grants } from '../../db/schema/index.js';

// The queries of license holders (customers), grants and downloads that grants.service.ts's rules stand on.

/** The database or an open transaction. */
export type Queryable = Pick<Database, 'select' | 'insert' | 'update' | 'execute'>;
export type CustomerRow = typeof customers.$inferSelect;

export async function findCustomerById(db: Queryable, customerId: string): Promise<CustomerRow | undefined> {
  return firstRow(db.select().from(customers).where(eq(customers.id, customerId)).limit(1));
}

/** The seller's holder of an e-mail address, whatever its case; `email` is already normalised. */
export async function findCustomerByNormalizedEmail(
  db: Queryable,
  sellerId: string,
  email: string,
): Promise<CustomerRow | undefined> {
  return firstRow(
    db
      .select()
      .from(customers)
      .where(and(eq(customers.sellerId, sellerId), sql`lower(${customers.email}) = ${email}`))
      .limit(1),
  );
}

export async function countHolders(db: Queryable, sellerId: string): Promise<number> {
  return totalOf(db.select({ total: count() }).from(customers).where(eq(customers.sellerId, sellerId)));
}

export type DownloadToCount = {
  grantId: string;
  version: string;
  now: string;
  network: string | null;
  /** The package downloaded: a product's license names none itself (grants.package_id is null), so the door says. */
  packageId?: string | null;
};

/**
 * One statement that counts a download against the grant and records it, only while the grant allows one at `now`
 * (ISO text: raw parameters go to both drivers untouched). Raw SQL on purpose: the query builder would also move
 * grants.updatedAt (the metadata's Last-Modified).
 */
export async function countDownloadIfAllowed(db: Queryable, download: DownloadToCount): Promise<boolean> {
  const { grantId, version, now, network } = download;
  const packageId = download.packageId ?? null;
  const result = (await db.execute(sql`
    with counted as (
      update ${grants}
      set download_count = download_count + 1, last_used_at = ${now}
      where id = ${grantId}
        and status = 'active'
        and (download_limit is null or download_count < download_limit)
        and (expires_at is null or expires_at > ${now} or end_mode = 'updates')
      returning id, package_id
    )
    insert into ${downloads} (grant_id, package_id, version, downloaded_at, client_network)
    select id, coalesce(${packageId}::uuid, package_id), ${version}, ${now}, ${network} from counted
    returning id`)) as unknown as { rows: unknown[] };
  return result.rows.length > 0;
}

/**
 * Counts several downloads in one statement (download-counts.ts gathers them): each grant moves by the number of its
 * downloads in the batch, only while it allows them all at the batch's latest time (its limit is checked against the
 * whole number, atomically). Returns the grants that were counted; a grant left out allowed none or not all of them.
 * The analytics triggers on downloads are statement-level, so a batch rolls up once, not once per download.
 */
export async function countDownloadsTogether(db: Queryable, batch: DownloadToCount[]): Promise<Set<string>> {
  const rows = sql.join(
    batch.map(
      (download) =>
        sql`(${download.grantId}::uuid, ${download.version}::text, ${download.now}::timestamptz, ${download.network}::text, ${download.packageId ?? null}::uuid)`,
    ),
    sql`, `,
  );
  const result = (await db.execute(sql`
    with input (grant_id, version, downloaded_at, client_network, package_id) as (values ${rows}),
    wanted as (
      select grant_id, count(*)::int as n, max(downloaded_at) as latest from input group by grant_id
    ),
    counted as (
      update ${grants} g
      set download_count = g.download_count + w.n, last_used_at = w.latest
      from wanted w
      where g.id = w.grant_id
        and g.status = 'active'
        and (g.download_limit is null or g.download_count + w.n <= g.download_limit)
        and (g.expires_at is null or g.expires_at > w.latest or g.end_mode = 'updates')
      returning g.id, g.package_id
    ),
    recorded as (
      insert into ${downloads} (grant_id, package_id, version, downloaded_at, client_network)
      select i.grant_id, coalesce(i.package_id, c.package_id), i.version, i.downloaded_at, i.client_network
      from input i join counted c on c.id = i.grant_id
      returning grant_id
    )
    select distinct grant_id from recorded`)) as unknown as { rows: { grant_id: string }[] };
  return new Set(result.rows.map((row) => row.grant_id));
}
