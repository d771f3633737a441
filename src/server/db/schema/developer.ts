import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { belongsTo, timestamptz, timestamptzNow, uuidPrimaryKey } from './columns.js';
import { users } from './users.js';

/**
 * A seller's API token for /api/v1. Only the SHA-256 of the token (`pga_...`) is kept. A deleted token keeps
 * its row (deletedAt set) so that a request still carrying it is told it was deleted, not that it is unknown.
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: uuidPrimaryKey(),
    userId: belongsTo('user_id', () => users.id),
    name: text('name').notNull(),
    /** The member who created the token (issue 33): it never does more than that member's role allows. */
    createdById: uuid('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    tokenHash: text('token_hash').notNull(),
    permissions: jsonb('permissions').$type<string[]>().notNull(),
    isActive: boolean('is_active').notNull().default(true),
    expiresAt: timestamptz('expires_at'),
    /** Written at most once a minute, so that reads do not each become a write. */
    lastUsedAt: timestamptz('last_used_at'),
    createdAt: timestamptzNow('created_at'),
    deletedAt: timestamptz('deleted_at'),
  },
  (table) => [
    uniqueIndex('api_tokens_token_hash_unique').on(table.tokenHash),
    index('api_tokens_user_idx').on(table.userId, table.createdAt),
  ],
);

/**
 * The first answer to a POST sent with an Idempotency-Key, replayed for 24 hours to retries with the same key.
 * A row is claimed (state `pending`) before the work starts, so that concurrent duplicates wait for it instead
 * of doing the work again. The answer is sealed (AES-256-GCM): it may carry a license holder's Composer token.
 * Keys belong to the API token that sent them (issue 28): another token of the same seller, weaker or not, never
 * sees an answer it did not cause.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: belongsTo('user_id', () => users.id),
    apiTokenId: belongsTo('api_token_id', () => apiTokens.id),
    key: text('key').notNull(),
    /** SHA-256 of method, path and body: the same key with another request is refused. */
    requestHash: text('request_hash').notNull(),
    state: text('state', { enum: ['pending', 'done'] })
      .notNull()
      .default('pending'),
    responseStatus: integer('response_status'),
    responseBodySealed: text('response_body_sealed'),
    createdAt: timestamptzNow('created_at'),
    expiresAt: timestamptz('expires_at').notNull(),
  },
  (table) => [
    uniqueIndex('idempotency_keys_token_key_unique').on(table.apiTokenId, table.key),
    index('idempotency_keys_expires_idx').on(table.expiresAt),
  ],
);

/** Who did what and when: every command on a seller's data, from any door, written in the command's transaction. */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: uuidPrimaryKey(),
    /** The seller whose data changed, and who may read the event. */
    userId: belongsTo('user_id', () => users.id),
    /** `session` (a signed-in person) or `api_token`. */
    actorType: text('actor_type', { enum: ['session', 'api_token'] }).notNull(),
    /** The acting API token's id, masked (`1a2b3c4d…`); null for sessions. */
    actorTokenMasked: text('actor_token_masked'),
    /** The person who acted (the member, or the API token's creator); kept without a foreign key so it outlives them. */
    actorUserId: uuid('actor_user_id'),
    /** The acting person's name or e-mail at the time, so the audit list names them after they leave. */
    actorLabel: text('actor_label'),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamptzNow('created_at'),
  },
  (table) => [index('audit_events_user_time_idx').on(table.userId, table.createdAt)],
);
