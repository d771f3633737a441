import { sql } from 'drizzle-orm';
import { bigint, date, index, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { belongsTo, timestamptz } from './columns.js';
import { customers, grants } from './licenses.js';
import { packages } from './packages.js';
import { users } from './users.js';

// Rollups of the downloads table for the seller's analytics: a seller's charts and tables read a few thousand rows
// here instead of counting every download (a million rows took seconds). A statement-level trigger on downloads
// (migration 0011) keeps them in the same transaction as the download itself, so they always agree with the rows.
// Downloads are only ever deleted by the cascade of their grant or package, which cascades these rows too; a writer
// that deletes download rows any other way must adjust these tables.

/** Downloads per package and UTC day: the time series for all packages or one, and the Dashboard totals. */
export const downloadPackageDays = pgTable(
  'download_package_days',
  {
    packageId: belongsTo('package_id', () => packages.id),
    day: date('day', { mode: 'string' }).notNull(),
    sellerId: belongsTo('seller_id', () => users.id),
    downloads: bigint('downloads', { mode: 'number' }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.packageId, table.day] }),
    index('download_package_days_seller_day_idx').on(table.sellerId, table.day),
  ],
);

/**
 * Downloads per grant, UTC day and client network (`''` when unknown): a holder's series, top holders and the
 * sharing signal (distinct networks of one token in a day).
 */
export const downloadGrantDays = pgTable(
  'download_grant_days',
  {
    grantId: belongsTo('grant_id', () => grants.id),
    day: date('day', { mode: 'string' }).notNull(),
    network: text('network').notNull(),
    sellerId: uuid('seller_id').notNull(),
    customerId: belongsTo('customer_id', () => customers.id),
    packageId: uuid('package_id').notNull(),
    downloads: bigint('downloads', { mode: 'number' }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.grantId, table.day, table.network] }),
    index('download_grant_days_seller_day_idx').on(table.sellerId, table.day),
    index('download_grant_days_customer_day_idx').on(table.customerId, table.day),
  ],
);

/** Each grant's most recent download: version adoption and holders who have not updated. */
export const grantLastDownloads = pgTable(
  'grant_last_downloads',
  {
    grantId: uuid('grant_id')
      .primaryKey()
      .references(() => grants.id, { onDelete: 'cascade' }),
    sellerId: uuid('seller_id').notNull(),
    customerId: uuid('customer_id').notNull(),
    packageId: uuid('package_id').notNull(),
    version: text('version').notNull(),
    downloadedAt: timestamptz('downloaded_at').notNull(),
  },
  (table) => [
    index('grant_last_downloads_seller_package_idx').on(table.sellerId, table.packageId),
    // A top holder's packages downloaded in the period and latest download.
    index('grant_last_downloads_customer_idx').on(table.customerId, table.downloadedAt),
  ],
);

/**
 * Downloads per license holder and UTC day, with how many distinct client networks they came from: top holders,
 * a holder's series and the sharing signal read these (one row per holder and day, not per license). Downloads of
 * a package the seller later deletes stay counted here (the holder did download them).
 */
export const downloadHolderDays = pgTable(
  'download_holder_days',
  {
    customerId: belongsTo('customer_id', () => customers.id),
    day: date('day', { mode: 'string' }).notNull(),
    sellerId: uuid('seller_id').notNull(),
    downloads: bigint('downloads', { mode: 'number' }).notNull(),
    /**
     * The holder's downloads up to and including this day (a running total kept by the trigger of migration 0021):
     * any period's downloads are two lookups per holder, `running(to) - running(day before from)`, so top holders
     * costs one probe per holder pair whatever the period or the number of downloads.
     */
    runningDownloads: bigint('running_downloads', { mode: 'number' }).notNull().default(0),
    /** Distinct known client networks of the day (download_holder_day_networks). */
    networks: integer('networks').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.customerId, table.day] }),
    index('download_holder_days_seller_day_idx').on(table.sellerId, table.day, table.customerId, table.downloads),
    // The sharing signal asks for two or more networks at least: it reads only those days.
    index('download_holder_days_shared_idx').on(table.sellerId, table.day).where(sql`${table.networks} >= 2`),
  ],
);

/** The distinct client networks of each holder and day, behind download_holder_days.networks. */
export const downloadHolderDayNetworks = pgTable(
  'download_holder_day_networks',
  {
    customerId: belongsTo('customer_id', () => customers.id),
    day: date('day', { mode: 'string' }).notNull(),
    network: text('network').notNull(),
  },
  (table) => [primaryKey({ columns: [table.customerId, table.day, table.network] })],
);
