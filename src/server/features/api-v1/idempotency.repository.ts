import { and, eq, lte } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { firstRow, hasAnyRow } from '../../db/result-rows.js';
import { idempotencyKeys } from '../../db/schema/index.js';

// Queries of the idempotency_keys table. A key belongs to the API token that sent it (unique per token), never to
// the seller as a whole: one token's remembered answer is never found by another's key.

export type IdempotencyRow = typeof idempotencyKeys.$inferSelect;
type Db = Pick<AppContext, 'db'>;

/** Inserts a pending claim; false when the token already holds the key (a finished or a running request). */
export async function claimKey(
  ctx: Db,
  values: {
    userId: string;
    apiTokenId: string;
    key: string;
    requestHash: string;
    createdAt: Date;
    expiresAt: Date;
  },
): Promise<boolean> {
  return hasAnyRow(
    ctx.db
      .insert(idempotencyKeys)
      .values({ ...values, state: 'pending' })
      .onConflictDoNothing({ target: [idempotencyKeys.apiTokenId, idempotencyKeys.key] })
      .returning({ key: idempotencyKeys.key }),
  );
}

export async function findKey(ctx: Db, apiTokenId: string, key: string): Promise<IdempotencyRow | undefined> {
  return firstRow(
    ctx.db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.apiTokenId, apiTokenId), eq(idempotencyKeys.key, key)))
      .limit(1),
  );
}

export async function completeKey(
  ctx: Db,
  apiTokenId: string,
  key: string,
  response: { status: number; bodySealed: string },
): Promise<void> {
  await ctx.db
    .update(idempotencyKeys)
    .set({ state: 'done', responseStatus: response.status, responseBodySealed: response.bodySealed })
    .where(and(eq(idempotencyKeys.apiTokenId, apiTokenId), eq(idempotencyKeys.key, key)));
}

export async function releaseKey(ctx: Db, apiTokenId: string, key: string): Promise<void> {
  await ctx.db
    .delete(idempotencyKeys)
    .where(and(eq(idempotencyKeys.apiTokenId, apiTokenId), eq(idempotencyKeys.key, key)));
}

/** Forgets the seller's keys past their 24 hours (whichever of its tokens sent them), so that a key may be used afresh. */
export async function deleteExpiredKeys(ctx: Db, userId: string, now: Date): Promise<void> {
  await ctx.db
    .delete(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, userId), lte(idempotencyKeys.expiresAt, now)));
}
