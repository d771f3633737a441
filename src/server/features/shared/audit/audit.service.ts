import type { AuditEvent } from '../../../../contract/api-v1.js';
import type { AppContext } from '../../../context.js';
import type { Database } from '../../../db/client.js';
import type { Principal } from '../../../http/principal.js';
import * as repository from './audit.repository.js';

// The audit trail: every command a seller's data goes through (packages, licenses temporary and lasting, a holder's
// token, API tokens, webhook endpoints, test purchases). The command lives in its domain, takes the acting principal
// and writes its event inside its own transaction, whichever door called it (the dashboard, API v1, the portal): the
// event commits with the change or not at all, and one change has one event name. recordAuditEvent accepts only an
// open transaction, so no after-commit write path can come back. A seller reads theirs through GET /api/v1/audit-events.

/** An open transaction (the callback argument of `db.transaction`), never the database itself. */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

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

/**
 * Writes the event in the command's transaction `tx`: it exists exactly when the change it records does. The actor is
 * derived from the principal (http/principal.ts): an API token is recorded as `api_token` with its masked id, anyone
 * else (a member, an admin, a portal holder, the platform) as `session`; `person` names the member who acted.
 */
export async function recordAuditEvent(
  tx: Transaction,
  ctx: Pick<AppContext, 'clock'>,
  actor: Principal,
  event: AuditRecord,
): Promise<void> {
  await repository.insertAuditEvent(tx, {
    userId: actor.sellerId,
    actorType: actor.kind === 'api_token' ? 'api_token' : 'session',
    actorTokenMasked: actor.kind === 'api_token' ? maskTokenId(actor.tokenId) : null,
    actorUserId: actor.person?.id ?? null,
    actorLabel: actor.person?.label ?? null,
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
  const rows = await repository.selectAuditEventsOfSeller(ctx.db, sellerId, page);
  return rows.map((row) => ({
    id: row.id,
    action: row.action,
    actor: {
      type: row.actorType,
      tokenId: row.actorTokenMasked,
      member: row.actorUserId && row.actorLabel ? { id: row.actorUserId, label: row.actorLabel } : null,
    },
    targetType: row.targetType,
    targetId: row.targetId,
    details: row.details,
    createdAt: row.createdAt.toISOString(),
  }));
}
