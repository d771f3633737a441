import { index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Webhook deliveries already handled, by the sender's delivery id (GitHub's X-GitHub-Delivery): senders
 * redeliver on timeouts and on request, and a repeated delivery must do nothing new.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    source: text('source', { enum: ['github', 'gitlab', 'bitbucket', 'stripe'] }).notNull(),
    deliveryId: text('delivery_id').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.source, table.deliveryId] }),
    index('webhook_deliveries_received_idx').on(table.receivedAt),
  ],
);
