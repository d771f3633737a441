import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { firstRow, totalOf, writtenRow } from '../../db/result-rows.js';
import { webhookAttempts, webhookEndpoints, webhookMessages } from '../../db/schema/index.js';

// The queries of a seller's webhook endpoints and their deliveries (the webhook_endpoints, webhook_messages and
// webhook_attempts tables, which this domain alone writes).

/** The database or an open transaction. */
type Queryable = Pick<Database, 'select' | 'insert' | 'update' | 'delete' | 'execute'>;

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type NewEndpointRow = typeof webhookEndpoints.$inferInsert;
export type MessageRow = typeof webhookMessages.$inferSelect;
export type AttemptRow = typeof webhookAttempts.$inferSelect;

export async function findEndpointOfSeller(
  db: Queryable,
  sellerId: string,
  endpointId: string,
): Promise<EndpointRow | undefined> {
  return firstRow(
    db
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.sellerId, sellerId))),
  );
}

/** The seller's endpoints, oldest first. */
export function selectEndpointsOfSeller(db: Queryable, sellerId: string): Promise<EndpointRow[]> {
  return db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.sellerId, sellerId))
    .orderBy(webhookEndpoints.createdAt, webhookEndpoints.id);
}

/** Holds the seller's endpoint registrations until the transaction `tx` ends, so that two cannot both pass a count. */
export async function lockEndpointsOfSeller(tx: Queryable, sellerId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`webhook-endpoints:${sellerId}`}))`);
}

export async function countEndpointsOfSeller(db: Queryable, sellerId: string): Promise<number> {
  return totalOf(db.select({ total: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.sellerId, sellerId)));
}

export async function insertEndpoint(db: Queryable, values: NewEndpointRow): Promise<EndpointRow> {
  return writtenRow(db.insert(webhookEndpoints).values(values).returning(), 'The new webhook endpoint');
}

/** Changes an endpoint; undefined when it is gone. */
export async function updateEndpointRow(
  db: Queryable,
  endpointId: string,
  changes: Partial<NewEndpointRow>,
): Promise<EndpointRow | undefined> {
  return firstRow(db.update(webhookEndpoints).set(changes).where(eq(webhookEndpoints.id, endpointId)).returning());
}

export async function deleteEndpointRow(db: Queryable, endpointId: string): Promise<void> {
  await db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId));
}

/** Disables every enabled endpoint of the seller, as the seller would; answers how many. */
export async function disableEndpointsOfSeller(
  db: Pick<Database, 'update'>,
  sellerId: string,
  now: Date,
): Promise<number> {
  const disabled = await db
    .update(webhookEndpoints)
    .set({ isEnabled: false, disabledReason: 'seller', disabledAt: now, updatedAt: now })
    .where(and(eq(webhookEndpoints.sellerId, sellerId), eq(webhookEndpoints.isEnabled, true)))
    .returning({ id: webhookEndpoints.id });
  return disabled.length;
}

/** The endpoint's latest messages, newest first. */
export function selectLatestMessagesOfEndpoint(
  db: Queryable,
  endpointId: string,
  limit: number,
): Promise<MessageRow[]> {
  return db
    .select()
    .from(webhookMessages)
    .where(eq(webhookMessages.endpointId, endpointId))
    .orderBy(desc(webhookMessages.createdAt), desc(webhookMessages.id))
    .limit(limit);
}

export async function findMessageOfEndpoint(
  db: Queryable,
  endpointId: string,
  messageId: string,
): Promise<MessageRow | undefined> {
  return firstRow(
    db
      .select()
      .from(webhookMessages)
      .where(and(eq(webhookMessages.id, messageId), eq(webhookMessages.endpointId, endpointId))),
  );
}

/** The messages' attempts, oldest first. */
export function selectAttemptsOfMessages(db: Queryable, messageIds: string[]): Promise<AttemptRow[]> {
  if (messageIds.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(webhookAttempts)
    .where(inArray(webhookAttempts.messageId, messageIds))
    .orderBy(webhookAttempts.attemptedAt, webhookAttempts.id);
}

/** Sets a message pending again; undefined when it is gone. */
export async function markMessagePending(db: Queryable, messageId: string, now: Date): Promise<MessageRow | undefined> {
  return firstRow(
    db
      .update(webhookMessages)
      .set({ status: 'pending', updatedAt: now })
      .where(eq(webhookMessages.id, messageId))
      .returning(),
  );
}
