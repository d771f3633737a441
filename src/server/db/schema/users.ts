import { sql } from 'drizzle-orm';
import { bigint, boolean, index, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { belongsTo, timestamptz, timestamptzNow, uuidPrimaryKey } from './columns.js';

export const users = pgTable(
  'users',
  {
    id: uuidPrimaryKey(),
    userType: text('user_type', { enum: ['seller', 'admin'] })
      .notNull()
      .default('seller'),
    email: text('email'),
    githubId: bigint('github_id', { mode: 'number' }),
    githubUsername: text('github_username'),
    displayName: text('display_name'),
    avatarUrl: text('avatar_url'),
    /** AES-256-GCM sealed code-host token (see lib/crypto). */
    githubAccessTokenEncrypted: text('github_access_token_encrypted'),
    githubScopes: text('github_scopes'),
    /** Subdomain of the seller's Composer repository host. */
    slug: text('slug').notNull(),
    /** Tier remembered from `?tier=` at sign-in, preselected in the plan chooser. */
    selectedTier: text('selected_tier'),
    /** When the seller closed the account (issue 35): licenses and tokens revoked, sales stopped. */
    closedAt: timestamptz('closed_at'),
    /** When the retention job erases the closed account's personal data (sales kept for tax law). */
    eraseAfter: timestamptz('erase_after'),
    /**
     * What happens to a holder's token a secret scanner reports as leaked (issue 32): `revoke` at once, or `mark` it
     * leaked and keep it working for 24 hours while the holder replaces it.
     */
    leakedTokenAction: text('leaked_token_action', { enum: ['revoke', 'mark'] })
      .notNull()
      .default('revoke'),
    createdAt: timestamptzNow('created_at'),
    updatedAt: timestamptzNow('updated_at'),
  },
  (table) => [
    uniqueIndex('users_email_unique').on(sql`lower(${table.email})`),
    uniqueIndex('users_github_id_unique').on(table.githubId),
    uniqueIndex('users_slug_unique').on(table.slug),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    /** SHA-256 of the cookie value; the cookie itself is never stored. */
    idHash: text('id_hash').primaryKey(),
    userId: belongsTo('user_id', () => users.id),
    /** The admin behind an impersonation; userId is then the impersonated user. */
    impersonatorId: uuid('impersonator_id').references(() => users.id, { onDelete: 'cascade' }),
    /** The organisation the person works in this session (issue 33); null = their own account. */
    organizationId: uuid('organization_id').references(() => users.id, { onDelete: 'cascade' }),
    /** Set while a person with a second factor has signed in by link and not yet passed the second factor. */
    secondFactorPending: boolean('second_factor_pending').notNull().default(false),
    /** How the person signed in: `link`, `passkey`, `totp`, `recovery_code`, `github`. */
    signInMethod: text('sign_in_method'),
    /** The network the session came from (an IPv4 /24 or IPv6 /48), shown as its place on the sessions page. */
    network: text('network'),
    createdAt: timestamptzNow('created_at'),
    lastSeenAt: timestamptzNow('last_seen_at'),
    expiresAt: timestamptz('expires_at').notNull(),
    userAgent: text('user_agent'),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
  },
  (table) => [index('sessions_user_idx').on(table.userId)],
);

export const magicLinks = pgTable(
  'magic_links',
  {
    id: uuidPrimaryKey(),
    tokenHash: text('token_hash').notNull(),
    email: text('email').notNull(),
    purpose: text('purpose', { enum: ['admin', 'seller'] }).notNull(),
    selectedTier: text('selected_tier'),
    createdAt: timestamptzNow('created_at'),
    expiresAt: timestamptz('expires_at').notNull(),
    usedAt: timestamptz('used_at'),
  },
  (table) => [
    uniqueIndex('magic_links_token_hash_unique').on(table.tokenHash),
    index('magic_links_email_idx').on(table.email),
  ],
);
