import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './users.js';

export const packages = pgTable(
  'packages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHost: text('code_host', { enum: ['github', 'local'] }).notNull(),
    /** The code host's id of the repository (GitHub's numeric id, or the local folder's relative path). */
    repositoryId: text('repository_id').notNull(),
    repositoryFullName: text('repository_full_name').notNull(),
    /** Composer package name, vendor/package, lower case. */
    name: text('name').notNull(),
    description: text('description'),
    isActive: boolean('is_active').notNull().default(true),
    syncStatus: text('sync_status', { enum: ['pending', 'syncing', 'ready', 'failed'] })
      .notNull()
      .default('pending'),
    syncError: text('sync_error'),
    lastSyncedAt: timestamp('last_synced_at', { withTimezone: true }),
    /** Tags and branches Composer would skip, with the reason, shown to the seller. */
    skippedReferences: jsonb('skipped_references')
      .$type<{ reference: string; reason: string }[]>()
      .notNull()
      .default([]),
    /** Sealed (AES-256-GCM) secret of the GitHub push webhook. */
    webhookSecretEncrypted: text('webhook_secret_encrypted'),
    /** The code host's id of that webhook, to remove it when the package is deleted. */
    webhookId: text('webhook_id'),
    /** Changes whenever the published versions change: Last-Modified of the metadata. */
    metadataUpdatedAt: timestamp('metadata_updated_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('packages_owner_name_unique').on(table.ownerId, table.name),
    index('packages_owner_idx').on(table.ownerId),
    // A push webhook names the repository, not the package.
    index('packages_repository_idx').on(table.codeHost, table.repositoryId),
  ],
);

export const packageVersions = pgTable(
  'package_versions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    packageId: uuid('package_id')
      .notNull()
      .references(() => packages.id, { onDelete: 'cascade' }),
    /** As Composer shows it: `v1.0.0`, `1.x-dev`, `dev-main`. */
    version: text('version').notNull(),
    normalizedVersion: text('normalized_version').notNull(),
    kind: text('kind', { enum: ['tag', 'branch'] }).notNull(),
    reference: text('reference').notNull(),
    commit: text('commit').notNull(),
    /** When the commit was made (git's author date): shown to people, never used to decide access. */
    releasedAt: timestamp('released_at', { withTimezone: true }).notNull(),
    /**
     * When this version was published: the moment Packgate first saw the reference at this commit, never earlier
     * than the tag's own date where git has one (an annotated tag's tagger date). What an update window compares
     * with (issue 28): no date a committer can set decides access.
     */
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull(),
    composerJson: jsonb('composer_json').$type<Record<string, unknown>>().notNull(),
    distKey: text('dist_key'),
    distSha1: text('dist_sha1'),
    distSize: integer('dist_size'),
    /** When the zip was last built or found in storage (the admin cache panel's Last Updated); null without one. */
    distBuiltAt: timestamp('dist_built_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('package_versions_package_version_unique').on(table.packageId, table.version)],
);

/** A seller's license holder: one Composer token per seller and e-mail. */
export const customers = pgTable(
  'customers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sellerId: uuid('seller_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    /** SHA-256 of the Composer token (`pgc_...`); the token itself is only ever e-mailed. */
    tokenHash: text('token_hash').notNull(),
    tokenIssuedAt: timestamp('token_issued_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('customers_seller_email_unique').on(table.sellerId, sql`lower(${table.email})`),
    uniqueIndex('customers_token_hash_unique').on(table.tokenHash),
  ],
);

/** A license: what one license holder may install of one package, until when and how often. */
export const grants = pgTable(
  'grants',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    packageId: uuid('package_id')
      .notNull()
      .references(() => packages.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['purchase', 'temporary', 'manual'] }).notNull(),
    status: text('status', { enum: ['active', 'revoked'] })
      .notNull()
      .default('active'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** At expiry: `access` ends everything; `updates` freezes (versions released before expiry stay installable). */
    endMode: text('end_mode', { enum: ['access', 'updates'] })
      .notNull()
      .default('access'),
    downloadLimit: integer('download_limit'),
    downloadCount: integer('download_count').notNull().default(0),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    note: text('note'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /**
     * Any change the seller makes (expiry, end mode, status, limit) moves it: it takes part in the Last-Modified
     * of the holder's metadata, which must change whenever what the grant shows changes. Download counting and
     * lastUsedAt are written with raw SQL and leave it alone.
     */
    updatedAt: timestamp('updated_at', { withTimezone: true })
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (table) => [
    uniqueIndex('grants_customer_package_unique').on(table.customerId, table.packageId),
    index('grants_package_idx').on(table.packageId),
  ],
);

export const downloads = pgTable(
  'downloads',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    grantId: uuid('grant_id')
      .notNull()
      .references(() => grants.id, { onDelete: 'cascade' }),
    packageId: uuid('package_id')
      .notNull()
      .references(() => packages.id, { onDelete: 'cascade' }),
    version: text('version').notNull(),
    downloadedAt: timestamp('downloaded_at', { withTimezone: true }).notNull().defaultNow(),
    /** The client's network, never its address: `203.0.113.0/24` (IPv4) or `2001:db8:1::/48` (IPv6); null if unknown. */
    clientNetwork: text('client_network'),
  },
  (table) => [
    index('downloads_package_time_idx').on(table.packageId, table.downloadedAt),
    index('downloads_grant_idx').on(table.grantId),
  ],
);

/** Background work a user watches (package sync, pre-cache), mirrored to the realtime channel. */
export const tasks = pgTable(
  'tasks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type', {
      enum: ['cache-refresh', 'cache-clear', 'package-pre-cache', 'github-sync', 'database-operation'],
    }).notNull(),
    status: text('status', { enum: ['started', 'progress', 'completed', 'failed'] }).notNull(),
    progress: integer('progress').notNull().default(0),
    message: text('message').notNull().default(''),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('tasks_user_idx').on(table.userId, table.createdAt)],
);
