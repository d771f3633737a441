import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { codeHostConnections } from './code-hosts.js';
import { belongsTo, timestamptz, timestamptzNow, uuidPrimaryKey } from './columns.js';
import { users } from './users.js';

// Packages (features/packages writes these): a seller's packages and the versions a sync found. The holders,
// their licenses and downloads are in licenses.ts; the tasks a seller watches in tasks.ts.

export const packages = pgTable(
  'packages',
  {
    id: uuidPrimaryKey(),
    ownerId: belongsTo('owner_id', () => users.id),
    codeHost: text('code_host', { enum: ['github', 'gitlab', 'bitbucket', 'git', 'local'] }).notNull(),
    /**
     * The code-host connection the package syncs through (issue 30); null for packages whose connection was removed
     * (they keep serving what was published and say so on Management).
     */
    connectionId: uuid('connection_id').references(() => codeHostConnections.id, { onDelete: 'set null' }),
    /** What git clones: the https or ssh URL of the repository (hosts other than GitHub and the local folder). */
    repositoryUrl: text('repository_url'),
    /** Public half of the package's SSH deploy key (ed25519, OpenSSH format), shown to the seller to add read-only. */
    deployKeyPublic: text('deploy_key_public'),
    /** Sealed private half of that key; never returned. */
    deployKeyPrivateEncrypted: text('deploy_key_private_encrypted'),
    /** The SSH host key pinned on first use (a known_hosts line), and its SHA256 fingerprint shown to the seller. */
    sshHostKey: text('ssh_host_key'),
    sshHostKeyFingerprint: text('ssh_host_key_fingerprint'),
    /** When reconciliation last compared the remote's tags and branches with what is published. */
    lastReconciledAt: timestamptz('last_reconciled_at'),
    /**
     * Why the host refuses this package's code (repository gone, access removed, deploy key refused) and what to do;
     * null while it works. Composer keeps serving what was published.
     */
    accessProblem: text('access_problem'),
    accessProblemSince: timestamptz('access_problem_since'),
    /** When the seller was e-mailed about the current access problem: once per problem. */
    accessProblemNotifiedAt: timestamptz('access_problem_notified_at'),
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
    lastSyncedAt: timestamptz('last_synced_at'),
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
    metadataUpdatedAt: timestamptzNow('metadata_updated_at'),
    createdAt: timestamptzNow('created_at'),
    updatedAt: timestamptzNow('updated_at'),
  },
  (table) => [
    uniqueIndex('packages_owner_name_unique').on(table.ownerId, table.name),
    index('packages_owner_idx').on(table.ownerId),
    // A push webhook names the repository, not the package.
    index('packages_repository_idx').on(table.codeHost, table.repositoryId),
    index('packages_connection_idx').on(table.connectionId),
  ],
);

export const packageVersions = pgTable(
  'package_versions',
  {
    id: uuidPrimaryKey(),
    packageId: belongsTo('package_id', () => packages.id),
    /** As Composer shows it: `v1.0.0`, `1.x-dev`, `dev-main`. */
    version: text('version').notNull(),
    normalizedVersion: text('normalized_version').notNull(),
    kind: text('kind', { enum: ['tag', 'branch'] }).notNull(),
    reference: text('reference').notNull(),
    commit: text('commit').notNull(),
    /** When the commit was made (git's author date): shown to people, never used to decide access. */
    releasedAt: timestamptz('released_at').notNull(),
    /**
     * When this version was published: the moment Packgate first saw the reference at this commit, never earlier
     * than the tag's own date where git has one (an annotated tag's tagger date). What an update window compares
     * with (issue 28): no date a committer can set decides access.
     */
    publishedAt: timestamptz('published_at').notNull(),
    composerJson: jsonb('composer_json').$type<Record<string, unknown>>().notNull(),
    distKey: text('dist_key'),
    distSha1: text('dist_sha1'),
    distSize: integer('dist_size'),
    /** When the zip was last built or found in storage (the admin cache panel's Last Updated); null without one. */
    distBuiltAt: timestamptz('dist_built_at'),
    createdAt: timestamptzNow('created_at'),
  },
  (table) => [uniqueIndex('package_versions_package_version_unique').on(table.packageId, table.version)],
);
