import {
  type AnyColumn,
  and,
  asc,
  between,
  count,
  countDistinct,
  desc,
  eq,
  gt,
  gte,
  isNull,
  lt,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { firstRow } from '../../db/result-rows.js';
import {
  customers,
  downloadGrantDays,
  downloadHolderDayNetworks,
  downloadHolderDays,
  downloadPackageDays,
  grantLastDownloads,
  grants,
  packages,
} from '../../db/schema/index.js';

// The analytics queries. They read the rollups (schema/analytics.ts), never count the downloads table: each one
// stays a small index range whatever the number of downloads. Every query filters by the seller.

type DayRange = { from: string; to: string };

/** A rollup's day between the range's first and last day, both included. */
const withinDays = (day: AnyColumn, range: DayRange) => between(day, range.from, range.to);

const sumDownloads = sql<string>`coalesce(sum(${downloadPackageDays.downloads}), 0)`.mapWith(Number);

/** All downloads of the seller's packages, and those between two UTC days (inclusive). */
export async function sumSellerDownloads(db: Database, sellerId: string, range?: DayRange): Promise<number> {
  const [row] = await db
    .select({ value: sumDownloads })
    .from(downloadPackageDays)
    .where(
      and(eq(downloadPackageDays.sellerId, sellerId), range ? withinDays(downloadPackageDays.day, range) : undefined),
    );
  return row?.value ?? 0;
}

/** Downloads per UTC day of the seller's packages, or of one package. */
export async function packageDownloadsByDay(
  db: Database,
  sellerId: string,
  range: DayRange,
  packageId?: string,
): Promise<Map<string, number>> {
  const rows = await db
    .select({ day: downloadPackageDays.day, downloads: sumDownloads })
    .from(downloadPackageDays)
    .where(
      and(
        eq(downloadPackageDays.sellerId, sellerId),
        withinDays(downloadPackageDays.day, range),
        packageId ? eq(downloadPackageDays.packageId, packageId) : undefined,
      ),
    )
    .groupBy(downloadPackageDays.day);
  return new Map(rows.map((row) => [row.day, row.downloads]));
}

const sumGrantDays = sql<string>`coalesce(sum(${downloadGrantDays.downloads}), 0)`.mapWith(Number);

/** Downloads per UTC day of one license holder, all packages (holder-day rollup) or one (grant-day rollup). */
export async function holderDownloadsByDay(
  db: Database,
  sellerId: string,
  customerId: string,
  range: DayRange,
  packageId?: string,
): Promise<Map<string, number>> {
  if (!packageId) {
    const rows = await db
      .select({ day: downloadHolderDays.day, downloads: downloadHolderDays.downloads })
      .from(downloadHolderDays)
      .where(
        and(
          eq(downloadHolderDays.customerId, customerId),
          eq(downloadHolderDays.sellerId, sellerId),
          withinDays(downloadHolderDays.day, range),
        ),
      );
    return new Map(rows.map((row) => [row.day, Number(row.downloads)]));
  }
  const rows = await db
    .select({ day: downloadGrantDays.day, downloads: sumGrantDays })
    .from(downloadGrantDays)
    .where(
      and(
        eq(downloadGrantDays.customerId, customerId),
        eq(downloadGrantDays.sellerId, sellerId),
        withinDays(downloadGrantDays.day, range),
        eq(downloadGrantDays.packageId, packageId),
      ),
    )
    .groupBy(downloadGrantDays.day);
  return new Map(rows.map((row) => [row.day, row.downloads]));
}

export async function findSellerCustomerByEmail(db: Database, sellerId: string, email: string) {
  return firstRow(
    db
      .select({ id: customers.id, email: customers.email })
      .from(customers)
      .where(and(eq(customers.sellerId, sellerId), sql`lower(${customers.email}) = ${email.toLowerCase()}`))
      .limit(1),
  );
}

/** A holder's running total of downloads on the last day with downloads up to `day` (0 before their first). */
function runningTotalUpTo(day: SQL, inclusive: boolean) {
  return sql`coalesce((select ${downloadHolderDays.runningDownloads} from ${downloadHolderDays}
    where ${downloadHolderDays.customerId} = ${customers.id}
      and ${downloadHolderDays.day} ${inclusive ? sql`<=` : sql`<`} ${day}
    order by ${downloadHolderDays.day} desc limit 1), 0)`;
}

/**
 * The holders with the most downloads between two days, ties by e-mail, with how many packages they downloaded in
 * that time and their latest download. A holder's downloads in the period are the difference of two running totals
 * (download_holder_days.running_downloads): two index probes per holder, whatever the period or the number of
 * downloads. A license's last download falls in the period exactly when the license was used in it, so the packages
 * come from the last-download rollup, asked only for the top holders.
 */
export async function topHolderRows(db: Database, sellerId: string, range: DayRange, limit: number) {
  const periodDownloads = sql<number>`${runningTotalUpTo(sql`${range.to}`, true)} - ${runningTotalUpTo(sql`${range.from}`, false)}`;
  const top = db
    .select({
      holderId: sql<string>`${customers.id}`.as('holder_id'),
      email: sql<string>`${customers.email}`.as('email'),
      downloads: sql<number>`${periodDownloads}`.mapWith(Number).as('downloads'),
    })
    .from(customers)
    .where(eq(customers.sellerId, sellerId))
    // A fence: the subquery is not pulled up, so that each holder's total is computed once, not in each clause.
    .offset(0)
    .as('top');
  const periodStart = new Date(`${range.from}T00:00:00Z`);
  return db
    .select({
      email: top.email,
      downloads: top.downloads,
      packages:
        sql<string>`(select count(*) from ${grantLastDownloads} where ${grantLastDownloads.customerId} = ${top.holderId} and ${grantLastDownloads.downloadedAt} >= ${periodStart.toISOString()})`.mapWith(
          Number,
        ),
      lastDownloadAt:
        sql<Date | null>`(select max(${grantLastDownloads.downloadedAt}) from ${grantLastDownloads} where ${grantLastDownloads.customerId} = ${top.holderId})`.mapWith(
          (value: unknown) => (value === null ? null : new Date(value as string | Date)),
        ),
    })
    .from(top)
    .where(gt(top.downloads, 0))
    .orderBy(desc(top.downloads), asc(top.email), asc(top.holderId))
    .limit(limit);
}

/** Grants that are active and not expired: the licenses a holder still has. */
function liveGrant(now: Date) {
  return and(eq(grants.status, 'active'), or(isNull(grants.expiresAt), gt(grants.expiresAt, now)));
}

/** Who downloaded which version of which package, as the holder tables list it. */
const holderPackageVersion = {
  email: customers.email,
  packageId: packages.id,
  packageName: packages.name,
  version: grantLastDownloads.version,
};

/** The last downloads of grants that still let their holder install: active, not past an access-ending expiry. */
function installableLastDownloads(sellerId: string, now: Date, packageId: string | undefined) {
  return and(
    eq(grantLastDownloads.sellerId, sellerId),
    packageId ? eq(grantLastDownloads.packageId, packageId) : undefined,
    eq(grants.status, 'active'),
    or(isNull(grants.expiresAt), gt(grants.expiresAt, now), eq(grants.endMode, 'updates')),
  );
}

/** The last download of each grant that still lets its holder install, with holder and package. */
export async function lastDownloadRows(db: Database, sellerId: string, now: Date, packageId?: string) {
  return db
    .select({ ...holderPackageVersion, downloadedAt: grantLastDownloads.downloadedAt })
    .from(grantLastDownloads)
    .innerJoin(grants, eq(grants.id, grantLastDownloads.grantId))
    .innerJoin(customers, eq(customers.id, grantLastDownloads.customerId))
    .innerJoin(packages, eq(packages.id, grantLastDownloads.packageId))
    .where(installableLastDownloads(sellerId, now, packageId))
    .orderBy(asc(packages.name), desc(grantLastDownloads.downloadedAt), asc(customers.email));
}

/** How many of those grants downloaded each version last, per package: counted by the database, not listed. */
export async function lastVersionCounts(db: Database, sellerId: string, now: Date, packageId?: string) {
  const holders = sql<string>`count(*)`.mapWith(Number);
  return db
    .select({
      packageId: packages.id,
      packageName: packages.name,
      version: grantLastDownloads.version,
      holders,
    })
    .from(grantLastDownloads)
    .innerJoin(grants, eq(grants.id, grantLastDownloads.grantId))
    .innerJoin(packages, eq(packages.id, grantLastDownloads.packageId))
    .where(installableLastDownloads(sellerId, now, packageId))
    .groupBy(packages.id, packages.name, grantLastDownloads.version)
    .orderBy(asc(packages.name), asc(packages.id));
}

/** Live licenses (active, not expired) whose holder has not downloaded the package since `cutoff`, or never. */
export async function staleGrantRows(
  db: Database,
  sellerId: string,
  now: Date,
  cutoff: Date,
  limit: number,
  packageId?: string,
) {
  return db
    .select({
      ...holderPackageVersion,
      lastDownloadAt: grantLastDownloads.downloadedAt,
      licenseExpiresAt: grants.expiresAt,
    })
    .from(grants)
    .innerJoin(customers, eq(customers.id, grants.customerId))
    .innerJoin(packages, eq(packages.id, grants.packageId))
    .leftJoin(grantLastDownloads, eq(grantLastDownloads.grantId, grants.id))
    .where(
      and(
        eq(customers.sellerId, sellerId),
        packageId ? eq(grants.packageId, packageId) : undefined,
        liveGrant(now),
        or(isNull(grantLastDownloads.downloadedAt), lt(grantLastDownloads.downloadedAt, cutoff)),
      ),
    )
    .orderBy(sql`${grantLastDownloads.downloadedAt} asc nulls first`, asc(customers.email), asc(packages.name))
    .limit(limit);
}

/**
 * Days on which one holder downloaded from at least `minNetworks` (2 or more) distinct known networks: the latest
 * first, then the most networks, ties by e-mail. The partial index of the days with two or more networks is read
 * backwards from the period's last day, and the network lists are gathered only for the rows answered.
 */
export async function sharingRows(db: Database, sellerId: string, range: DayRange, minNetworks: number, limit: number) {
  return db
    .select({
      email: customers.email,
      day: downloadHolderDays.day,
      networks: sql<
        string[]
      >`array(select ${downloadHolderDayNetworks.network} from ${downloadHolderDayNetworks} where ${downloadHolderDayNetworks.customerId} = ${downloadHolderDays.customerId} and ${downloadHolderDayNetworks.day} = ${downloadHolderDays.day} order by 1)`,
      downloads: sql<string>`${downloadHolderDays.downloads}`.mapWith(Number),
    })
    .from(downloadHolderDays)
    .innerJoin(customers, eq(customers.id, downloadHolderDays.customerId))
    .where(
      and(
        eq(downloadHolderDays.sellerId, sellerId),
        withinDays(downloadHolderDays.day, range),
        // Spelled out so that the partial index of the days with two or more networks serves it.
        sql`${downloadHolderDays.networks} >= 2`,
        gte(downloadHolderDays.networks, minNetworks),
      ),
    )
    .orderBy(desc(downloadHolderDays.day), desc(downloadHolderDays.networks), asc(customers.email))
    .limit(limit);
}

/** The seller's active packages (the Dashboard's first card). */
export async function countActivePackages(db: Database, sellerId: string): Promise<number> {
  const [row] = await db
    .select({ value: count() })
    .from(packages)
    .where(and(eq(packages.ownerId, sellerId), eq(packages.isActive, true)));
  return Number(row?.value ?? 0);
}

/** Holders with at least one grant that is active and not expired (the Dashboard's Total Users). */
export async function countLiveHolders(db: Database, sellerId: string, now: Date): Promise<number> {
  const [row] = await db
    .select({ value: countDistinct(customers.id) })
    .from(customers)
    .innerJoin(grants, eq(grants.customerId, customers.id))
    .where(and(eq(customers.sellerId, sellerId), liveGrant(now)));
  return Number(row?.value ?? 0);
}
