import { and, desc, eq, lt } from 'drizzle-orm';
import type { Database } from '../../../db/client.js';
import { auditEvents } from '../../../db/schema/index.js';

// The queries of the audit trail (the `audit_events` table, which audit.service.ts and audit-erasure.service.ts alone
// write).

/** The database or an open transaction. */
type Queryable = Pick<Database, 'select' | 'insert' | 'update'>;

export type AuditEventRow = typeof auditEvents.$inferSelect;
export type NewAuditEventRow = typeof auditEvents.$inferInsert;

export async function insertAuditEvent(db: Queryable, values: NewAuditEventRow): Promise<void> {
  await db.insert(auditEvents).values(values);
}

/** The seller's events, newest first, `limit` of them older than `before` when given. */
export function selectAuditEventsOfSeller(
  db: Queryable,
  sellerId: string,
  page: { limit: number; before?: Date },
): Promise<AuditEventRow[]> {
  return db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.userId, sellerId), page.before ? lt(auditEvents.createdAt, page.before) : undefined))
    .orderBy(desc(auditEvents.createdAt), desc(auditEvents.id))
    .limit(page.limit);
}

/** Empties the details and actor names of the seller's events. */
export async function clearPersonalDataOfSeller(db: Pick<Database, 'update'>, sellerId: string): Promise<void> {
  await db.update(auditEvents).set({ details: {}, actorLabel: null }).where(eq(auditEvents.userId, sellerId));
}
