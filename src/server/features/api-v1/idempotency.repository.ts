import { and, eq, lte } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { idempotencyKeys } from '../../db/schema/index.js';

// Queries of the idempotency_keys table.

export type IdempotencyRow = typeof idempotencyKeys.$inferSelect;
type Db = Pick<AppContext, 'db'>;

/** Inserts a pending claim; false when the key is already taken (by a finished or a running request). */
export async function claimKey(
  ctx: Db,
  values: { userId: string; key: string; requestHash: string; createdAt: Date; expiresAt: Date },
): Promise<boolean> {
  const inserted = await ctx.db
    .insert(idempotencyKeys)
    .values({ ...values, state: 'pending' })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  return inserted.length > 0;
}

export async function findKey(ctx: Db, userId: string, key: string): Promise<IdempotencyRow | undefined> {
  const [row] = await ctx.db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)))
    .limit(1);
  return row;
}

export async function completeKey(
  ctx: Db,
  userId: string,
  key: string,
  response: { status: number; bodySealed: string },
): Promise<void> {
  await ctx.db
    .update(idempotencyKeys)
    .set({ state: 'done', responseStatus: response.status, responseBodySealed: response.bodySealed })
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
}

export async function releaseKey(ctx: Db, userId: string, key: string): Promise<void> {
  await ctx.db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
}

/** Forgets the user's keys past their 24 hours, so that a key may be used afresh. */
export async function deleteExpiredKeys(ctx: Db, userId: string, now: Date): Promise<void> {
  await ctx.db
    .delete(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, userId), lte(idempotencyKeys.expiresAt, now)));
}
