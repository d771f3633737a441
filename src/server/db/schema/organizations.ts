import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
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
    id: uuid('id').primaryKey().defaultRandom(),
    /** The organisation: the seller account whose data the member works on. */
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The person who signs in. */
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: organizationRoles }).notNull(),
    invitedById: uuid('invited_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
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
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role', { enum: organizationRoles }).notNull(),
    tokenHash: text('token_hash').notNull(),
    invitedById: uuid('invited_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSentAt: timestamp('last_sent_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    acceptedById: uuid('accepted_by_id').references(() => users.id, { onDelete: 'set null' }),
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('organization_invitations_token_hash_unique').on(table.tokenHash),
    index('organization_invitations_org_idx').on(table.organizationId, table.createdAt),
  ],
);
