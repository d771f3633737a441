import { and, eq, lt } from 'drizzle-orm';
import type { Database } from '../../../db/client.js';
import { hasAnyRow } from '../../../db/result-rows.js';
import { webhookDeliveries } from '../../../db/schema/index.js';

// The queries of the webhooks we receive (the `webhook_deliveries` table, which inbound-deliveries.service.ts alone
// writes).

/** The database or an open transaction. */
type Queryable = Pick<Database, 'insert' | 'delete'>;

export type InboundWebhookSource = (typeof webhookDeliveries.$inferInsert)['source'];

/** Inserts the delivery unless it is recorded already: true when it was inserted. */
export async function insertDeliveryIfNew(
  db: Queryable,
  source: InboundWebhookSource,
  deliveryId: string,
  receivedAt: Date,
): Promise<boolean> {
  return hasAnyRow(
    db
      .insert(webhookDeliveries)
      .values({ source, deliveryId, receivedAt })
      .onConflictDoNothing()
      .returning({ deliveryId: webhookDeliveries.deliveryId }),
  );
}

export async function deleteDeliveriesReceivedBefore(
  db: Queryable,
  source: InboundWebhookSource,
  before: Date,
): Promise<void> {
  await db
    .delete(webhookDeliveries)
    .where(and(eq(webhookDeliveries.source, source), lt(webhookDeliveries.receivedAt, before)));
}

export async function deleteDelivery(db: Queryable, source: InboundWebhookSource, deliveryId: string): Promise<void> {
  await db
    .delete(webhookDeliveries)
    .where(and(eq(webhookDeliveries.source, source), eq(webhookDeliveries.deliveryId, deliveryId)));
}
