import { and, desc, eq, lt } from 'drizzle-orm';
import type { AuditEvent } from '../../../../contract/api-v1.js';
import type { AppContext } from '../../../context.js';
import { auditEvents } from '../../../db/schema/index.js';

// The audit trail: API token creation and deletion, and every license change made through API v1.
// Events are written after the change they record; a seller reads their own through GET /api/v1/audit-events.

/** Who acted: a signed-in person, or one of the seller's API tokens. */
export type Actor = { sellerId: string } & ({ type: 'session' } | { type: 'api_token'; tokenId: string });

const MASK_VISIBLE_CHARACTERS = 8;

/** An API token's id as the audit trail shows it: enough to tell tokens apart, not the whole id. */
export function maskTokenId(tokenId: string): string {
  return `${tokenId.slice(0, MASK_VISIBLE_CHARACTERS)}…`;
}

export type AuditRecord = {
  action: string;
  targetType: string;
  targetId?: string | null;
  details?: Record<string, unknown>;
};

export async function recordAuditEvent(ctx: Pick<AppContext, 'db' | 'clock'>, actor: Actor, event: AuditRecord) {
  await ctx.db.insert(auditEvents).values({
    userId: actor.sellerId,
    actorType: actor.type,
    actorTokenMasked: actor.type === 'api_token' ? maskTokenId(actor.tokenId) : null,
    action: event.action,
    targetType: event.targetType,
    targetId: event.targetId ?? null,
    details: event.details ?? {},
    createdAt: ctx.clock.now(),
  });
}

/** The seller's events, newest first; `before` pages back in time. */
export async function listAuditEvents(
  ctx: Pick<AppContext, 'db'>,
  sellerId: string,
  page: { limit: number; before?: Date },
): Promise<AuditEvent[]> {
  const rows = await ctx.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.userId, sellerId), page.before ? lt(auditEvents.createdAt, page.before) : undefined))
    .orderBy(desc(auditEvents.createdAt), desc(auditEvents.id))
    .limit(page.limit);
  return rows.map((row) => ({
    id: row.id,
    action: row.action,
    actor: { type: row.actorType, tokenId: row.actorTokenMasked },
    targetType: row.targetType,
    targetId: row.targetId,
    details: row.details,
    createdAt: row.createdAt.toISOString(),
  }));
}
