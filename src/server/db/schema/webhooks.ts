import { index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { timestamptzNow } from './columns.js';

/**
 * Webhook deliveries already handled, by the sender's delivery id (GitHub's X-GitHub-Delivery): senders
 * redeliver on timeouts and on request, and a repeated delivery must do nothing new.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    source: text('source', { enum: ['github', 'gitlab', 'bitbucket', 'stripe'] }).notNull(),
    deliveryId: text('delivery_id').notNull(),
    receivedAt: timestamptzNow('received_at'),
  },
  (table) => [
    primaryKey({ columns: [table.source, table.deliveryId] }),
    index('webhook_deliveries_received_idx').on(table.receivedAt),
  ],
);
