import { sql } from 'drizzle-orm';
import { index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { belongsTo, timestamptz, timestamptzNow, uuidPrimaryKey } from './columns.js';
import { users } from './users.js';

// Code hosts (features/code-hosts writes these, issue 30): where a seller's code comes from. A package belongs to
// one connection and keeps it whatever the server's configuration says later (DESIGN, "Where code lives").

export const codeHostConnectionKinds = [
  /** A GitHub App installation (github.com or GHES): one-hour installation tokens minted per sync, nothing stored. */
  'github_app',
  /** The old OAuth grant with the `repo` scope: kept working for sellers who connected before the App. */
  'github_oauth',
  /** GitLab (gitlab.com or self-managed): OAuth with refresh, or a project/group access token. */
  'gitlab',
  /** Bitbucket Cloud: a workspace or repository access token. */
  'bitbucket',
  /** Any git server by URL: HTTPS with a username and password/token, or SSH with a per-package deploy key. */
  'git',
  /** The server's local folder of repositories (GIT_REPOS_DIR), the embedded default. */
  'local',
] as const;
export type CodeHostConnectionKind = (typeof codeHostConnectionKinds)[number];

export const codeHostConnections = pgTable(
  'code_host_connections',
  {
    id: uuidPrimaryKey(),
    /** The organisation (seller account) that owns the connection. */
    ownerId: belongsTo('owner_id', () => users.id),
    kind: text('kind', { enum: codeHostConnectionKinds }).notNull(),
    /** What the seller sees: `acme on github.com`, `gitlab.example.com (group acme)`, `git.example.com`. */
    label: text('label').notNull(),
    /** The host's web or API base for self-managed hosts (GHES, GitLab, a git server's origin); null for the defaults. */
    baseUrl: text('base_url'),
    /** The host's id of what was connected: the App installation id, GitLab user/group id, Bitbucket workspace uuid. */
    externalId: text('external_id'),
    /** The account the connection reads as (installation account login, GitLab username, Bitbucket workspace slug). */
    accountName: text('account_name'),
    /** How Packgate authenticates: `installation`, `oauth`, `access_token`, `basic`, `ssh_key`, `none`. */
    authMethod: text('auth_method', {
      enum: ['installation', 'oauth', 'access_token', 'basic', 'ssh_key', 'none'],
    }).notNull(),
    /** The user name of HTTP basic authentication (any git server, Bitbucket's `x-token-auth`). */
    username: text('username'),
    /** Sealed (lib/crypto encryptSecret) access token, OAuth access token or password; never returned once saved. */
    secretEncrypted: text('secret_encrypted'),
    /** Sealed OAuth refresh token (GitLab), rotated before the access token expires. */
    refreshTokenEncrypted: text('refresh_token_encrypted'),
    /** When the access token stops working (GitLab OAuth: two hours; access tokens: their expiry), if known. */
    tokenExpiresAt: timestamptz('token_expires_at'),
    /** What the credential may access, as the host states it (scopes, App permissions), shown on Code hosts. */
    scopes: text('scopes'),
    /** Sealed secret of a connection-level webhook (GitLab group hook, Bitbucket workspace hook), if any. */
    webhookSecretEncrypted: text('webhook_secret_encrypted'),
    /** `broken` once the host refused the credential (revoked, expired, uninstalled); back to `active` when it works. */
    status: text('status', { enum: ['active', 'broken'] })
      .notNull()
      .default('active'),
    /** What happened and what to do, in words a seller understands; null while active. */
    problem: text('problem'),
    problemSince: timestamptz('problem_since'),
    /** When the seller was e-mailed about the current problem: one e-mail per problem, not one per attempt. */
    problemNotifiedAt: timestamptz('problem_notified_at'),
    /** The member who connected it (null for connections made by the migration or by the host's own event). */
    createdById: uuid('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamptzNow('created_at'),
    updatedAt: timestamptzNow('updated_at'),
  },
  (table) => [
    index('code_host_connections_owner_idx').on(table.ownerId),
    // An App installation or a host's webhook names its external id, not the connection.
    index('code_host_connections_external_idx').on(table.kind, table.externalId),
    // One GitHub App installation belongs to one seller, even when two Setup URL callbacks race.
    uniqueIndex('code_host_connections_github_app_unique')
      .on(table.externalId)
      .where(sql`${table.kind} = 'github_app'`),
  ],
);
