import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { belongsTo, timestamptz, timestamptzNow, uuidPrimaryKey } from './columns.js';
import { customers } from './licenses.js';

// The license holder's portal (issue 13): sign-in links and sessions of one holder (customer) on one seller's host.
// A customer row belongs to exactly one seller, so both tables are scoped to that seller through it.

export const portalSignInLinks = pgTable(
  'portal_sign_in_links',
  {
    id: uuidPrimaryKey(),
    /** SHA-256 of the link's token; the token itself is only in the e-mail. */
    tokenHash: text('token_hash').notNull(),
    customerId: belongsTo('customer_id', () => customers.id),
    createdAt: timestamptzNow('created_at'),
    expiresAt: timestamptz('expires_at').notNull(),
    usedAt: timestamptz('used_at'),
  },
  (table) => [
    uniqueIndex('portal_sign_in_links_token_hash_unique').on(table.tokenHash),
    index('portal_sign_in_links_customer_time_idx').on(table.customerId, table.createdAt),
  ],
);

export const portalSessions = pgTable(
  'portal_sessions',
  {
    /** SHA-256 of the cookie value; the cookie itself is never stored. */
    idHash: text('id_hash').primaryKey(),
    customerId: belongsTo('customer_id', () => customers.id),
    createdAt: timestamptzNow('created_at'),
    lastSeenAt: timestamptzNow('last_seen_at'),
    expiresAt: timestamptz('expires_at').notNull(),
  },
  (table) => [index('portal_sessions_customer_idx').on(table.customerId)],
);
