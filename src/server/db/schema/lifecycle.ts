import { index, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { belongsTo, timestamptz, timestamptzNow, uuidPrimaryKey } from './columns.js';
import { customers } from './licenses.js';
import { packages } from './packages.js';

// A package's life after release (issue 13): security advisories, abandonment and yanked versions, all served to
// license holders through Composer's own repository features. Kept apart from `packages` and `package_versions`
// so that a sync, which rewrites version rows, never loses a yank. Each table announces its writes on the access
// change feed (`p:{package id}`, migration 0017) like the tables the warm path already reads.

export const securityAdvisories = pgTable(
  'security_advisories',
  {
    id: uuidPrimaryKey(),
    packageId: belongsTo('package_id', () => packages.id),
    /** Composer's `advisoryId` and the source's `remoteId`: `PKGT-` and 16 hex digits, stable for the advisory. */
    advisoryKey: text('advisory_key').notNull().unique(),
    title: text('title').notNull(),
    /** A Composer constraint as the seller wrote it (validated with our Composer version rules). */
    affectedVersions: text('affected_versions').notNull(),
    severity: text('severity', { enum: ['low', 'medium', 'high', 'critical'] }).notNull(),
    cve: text('cve'),
    link: text('link'),
    reportedAt: timestamptz('reported_at').notNull(),
    withdrawnAt: timestamptz('withdrawn_at'),
    createdAt: timestamptzNow('created_at'),
  },
  (table) => [index('security_advisories_package_idx').on(table.packageId)],
);

/** One e-mail per advisory and license holder: the row is taken before the mail is sent. */
export const advisoryNotices = pgTable(
  'advisory_notices',
  {
    advisoryId: belongsTo('advisory_id', () => securityAdvisories.id),
    customerId: belongsTo('customer_id', () => customers.id),
    /** The version the holder last downloaded, which the advisory affects. */
    installedVersion: text('installed_version').notNull(),
    createdAt: timestamptzNow('created_at'),
  },
  (table) => [primaryKey({ columns: [table.advisoryId, table.customerId] })],
);

export const packageAbandonments = pgTable('package_abandonments', {
  packageId: uuid('package_id')
    .primaryKey()
    .references(() => packages.id, { onDelete: 'cascade' }),
  /** The package to use instead (vendor/package), or null: Composer then says no replacement was suggested. */
  replacement: text('replacement'),
  abandonedAt: timestamptzNow('abandoned_at'),
});

/** A version withdrawn from the metadata; its zip stays downloadable for lock files that name it. */
export const versionYanks = pgTable(
  'version_yanks',
  {
    packageId: belongsTo('package_id', () => packages.id),
    /** The version as Composer shows it (`v1.2.0`), matching package_versions.version. */
    version: text('version').notNull(),
    reason: text('reason').notNull(),
    yankedAt: timestamptzNow('yanked_at'),
  },
  (table) => [primaryKey({ columns: [table.packageId, table.version] })],
);
