import { index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { belongsTo, timestamptz, timestamptzNow, uuidPrimaryKey } from './columns.js';
import { users } from './users.js';

/**
 * Roles of a member in a seller's organisation (issue 33). The organisation is the seller account: its id is the
 * account's `users.id`, which every seller table already names as its owner, so packages, licenses, holders,
 * prices, branding, API tokens, webhooks, the plan and payouts belong to the organisation without moving a row.
 */
export const organizationRoles = ['owner', 'admin', 'developer', 'support', 'viewer'] as const;
export type OrganizationRole = (typeof organizationRoles)[number];

/** A person (a `users` row who signs in) who works in an organisation, with one role. */
export const organizationMembers = pgTable(
  'organization_members',
  {
    id: uuidPrimaryKey(),
    /** The organisation: the seller account whose data the member works on. */
    organizationId: belongsTo('organization_id', () => users.id),
    /** The person who signs in. */
    userId: belongsTo('user_id', () => users.id),
    role: text('role', { enum: organizationRoles }).notNull(),
    invitedById: uuid('invited_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamptzNow('created_at'),
  },
  (table) => [
    uniqueIndex('organization_members_org_user_unique').on(table.organizationId, table.userId),
    index('organization_members_user_idx').on(table.userId),
  ],
);

/** An invitation e-mailed to join an organisation; single use, valid 7 days. Only the link's SHA-256 is kept. */
export const organizationInvitations = pgTable(
  'organization_invitations',
  {
    id: uuidPrimaryKey(),
    organizationId: belongsTo('organization_id', () => users.id),
    email: text('email').notNull(),
    role: text('role', { enum: organizationRoles }).notNull(),
    tokenHash: text('token_hash').notNull(),
    invitedById: uuid('invited_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamptzNow('created_at'),
    lastSentAt: timestamptzNow('last_sent_at'),
    expiresAt: timestamptz('expires_at').notNull(),
    acceptedAt: timestamptz('accepted_at'),
    acceptedById: uuid('accepted_by_id').references(() => users.id, { onDelete: 'set null' }),
    withdrawnAt: timestamptz('withdrawn_at'),
  },
  (table) => [
    uniqueIndex('organization_invitations_token_hash_unique').on(table.tokenHash),
    index('organization_invitations_org_idx').on(table.organizationId, table.createdAt),
  ],
);
