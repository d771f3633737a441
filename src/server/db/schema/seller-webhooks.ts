import { boolean, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { belongsTo, timestamptz, uuidPrimaryKey } from './columns.js';
import { grants } from './licenses.js';
import { users } from './users.js';

// Webhooks a seller's systems receive (issue 14), signed by the Standard Webhooks scheme. An endpoint listens to
// some event types; every event it listens to becomes one message (its `webhook-id`), delivered by a durable job
// with retries, each attempt recorded.

export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuidPrimaryKey(),
    sellerId: belongsTo('seller_id', () => users.id),
    url: text('url').notNull(),
    description: text('description'),
    events: text('events').array().notNull(),
    /** The `whsec_...` signing secret sealed with SECRET_KEY (lib/crypto): it must be readable to sign. */
    secretSealed: text('secret_sealed').notNull(),
    isEnabled: boolean('is_enabled').notNull().default(true),
    /** Why it was disabled: by the seller, or after deliveries kept failing. */
    disabledReason: text('disabled_reason', { enum: ['seller', 'failing'] }),
    disabledAt: timestamptz('disabled_at'),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (table) => [index('webhook_endpoints_seller_idx').on(table.sellerId, table.createdAt)],
);

/** One event for one endpoint; its id is the `webhook-id` every attempt (and a redelivery) carries. */
export const webhookMessages = pgTable(
  'webhook_messages',
  {
    id: text('id').primaryKey(),
    endpointId: belongsTo('endpoint_id', () => webhookEndpoints.id),
    eventType: text('event_type').notNull(),
    /** The JSON body as signed and sent: `{type, timestamp, data}`. */
    body: text('body').notNull(),
    status: text('status', { enum: ['pending', 'delivered', 'failed'] }).notNull(),
    attemptCount: integer('attempt_count').notNull().default(0),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (table) => [index('webhook_messages_endpoint_idx').on(table.endpointId, table.createdAt)],
);

export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: uuidPrimaryKey(),
    messageId: text('message_id')
      .notNull()
      .references(() => webhookMessages.id, { onDelete: 'cascade' }),
    attemptedAt: timestamptz('attempted_at').notNull(),
    durationMs: integer('duration_ms').notNull(),
    /** The receiver's HTTP status; null when no answer came (refused address, timeout, connection error). */
    responseStatus: integer('response_status'),
    isSuccess: boolean('is_success').notNull(),
    /** What went wrong, in words the seller can act on; no response bodies are kept. */
    error: text('error'),
    trigger: text('trigger', { enum: ['scheduled', 'redelivery'] }).notNull(),
  },
  (table) => [index('webhook_attempts_message_idx').on(table.messageId, table.attemptedAt)],
);

/** A license expiry already announced, so a scan that runs twice (two processes) sends it once. */
export const webhookLicenseExpiries = pgTable(
  'webhook_license_expiries',
  {
    grantId: belongsTo('grant_id', () => grants.id),
    expiresAt: timestamptz('expires_at').notNull(),
    announcedAt: timestamptz('announced_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.grantId, table.expiresAt] })],
);

/** Other once-only events, by a key naming the occurrence (e.g. a license's download limit reached in one term). */
export const webhookAnnouncements = pgTable('webhook_announcements', {
  key: text('key').primaryKey(),
  announcedAt: timestamptz('announced_at').notNull(),
});
