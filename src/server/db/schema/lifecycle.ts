import { index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { customers } from './licenses.js';
import { packages } from './packages.js';

// A package's life after release (issue 13): security advisories, abandonment and yanked versions, all served to
// license holders through Composer's own repository features. Kept apart from `packages` and `package_versions`
// so that a sync, which rewrites version rows, never loses a yank. Each table announces its writes on the access
// change feed (`p:{package id}`, migration 0017) like the tables the warm path already reads.

export const securityAdvisories = pgTable(
  'security_advisories',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    packageId: uuid('package_id')
      .notNull()
      .references(() => packages.id, { onDelete: 'cascade' }),
    /** Composer's `advisoryId` and the source's `remoteId`: `PKGT-` and 16 hex digits, stable for the advisory. */
    advisoryKey: text('advisory_key').notNull().unique(),
    title: text('title').notNull(),
    /** A Composer constraint as the seller wrote it (validated with our Composer version rules). */
    affectedVersions: text('affected_versions').notNull(),
    severity: text('severity', { enum: ['low', 'medium', 'high', 'critical'] }).notNull(),
    cve: text('cve'),
    link: text('link'),
    reportedAt: timestamp('reported_at', { withTimezone: true }).notNull(),
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('security_advisories_package_idx').on(table.packageId)],
);

/** One e-mail per advisory and license holder: the row is taken before the mail is sent. */
export const advisoryNotices = pgTable(
  'advisory_notices',
  {
    advisoryId: uuid('advisory_id')
      .notNull()
      .references(() => securityAdvisories.id, { onDelete: 'cascade' }),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    /** The version the holder last downloaded, which the advisory affects. */
    installedVersion: text('installed_version').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.advisoryId, table.customerId] })],
);

export const packageAbandonments = pgTable('package_abandonments', {
  packageId: uuid('package_id')
    .primaryKey()
    .references(() => packages.id, { onDelete: 'cascade' }),
  /** The package to use instead (vendor/package), or null: Composer then says no replacement was suggested. */
  replacement: text('replacement'),
  abandonedAt: timestamp('abandoned_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A version withdrawn from the metadata; its zip stays downloadable for lock files that name it. */
export const versionYanks = pgTable(
  'version_yanks',
  {
    packageId: uuid('package_id')
      .notNull()
      .references(() => packages.id, { onDelete: 'cascade' }),
    /** The version as Composer shows it (`v1.2.0`), matching package_versions.version. */
    version: text('version').notNull(),
    reason: text('reason').notNull(),
    yankedAt: timestamp('yanked_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.packageId, table.version] })],
);
