import { and, desc, eq, isNull, lt, or } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { apiTokens } from '../../db/schema/index.js';

// Queries of the api_tokens table. Every read a seller makes is scoped to their user id.

export type ApiTokenRow = typeof apiTokens.$inferSelect;
type Db = Pick<AppContext, 'db'>;

export async function insertApiToken(ctx: Db, values: typeof apiTokens.$inferInsert): Promise<ApiTokenRow> {
  const [row] = await ctx.db.insert(apiTokens).values(values).returning();
  if (!row) throw new Error('API token insert returned nothing');
  return row;
}

/** The seller's tokens that were not deleted, newest first. */
export async function listLiveTokens(ctx: Db, userId: string): Promise<ApiTokenRow[]> {
  return ctx.db
    .select()
    .from(apiTokens)
    .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.deletedAt)))
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
}

export async function findLiveToken(ctx: Db, userId: string, tokenId: string): Promise<ApiTokenRow | undefined> {
  const [row] = await ctx.db
    .select()
    .from(apiTokens)
    .where(and(eq(apiTokens.id, tokenId), eq(apiTokens.userId, userId), isNull(apiTokens.deletedAt)))
    .limit(1);
  return row;
}

/** By the SHA-256 of the token, deleted ones included (their holder is told the token was deleted). */
export async function findTokenByHash(ctx: Db, tokenHash: string): Promise<ApiTokenRow | undefined> {
  const [row] = await ctx.db.select().from(apiTokens).where(eq(apiTokens.tokenHash, tokenHash)).limit(1);
  return row;
}

/** Soft delete: the row stays so that the token's next request hears it was deleted. False if already gone. */
export async function markTokenDeleted(ctx: Db, userId: string, tokenId: string, now: Date): Promise<boolean> {
  const deleted = await ctx.db
    .update(apiTokens)
    .set({ deletedAt: now, isActive: false })
    .where(and(eq(apiTokens.id, tokenId), eq(apiTokens.userId, userId), isNull(apiTokens.deletedAt)))
    .returning({ id: apiTokens.id });
  return deleted.length > 0;
}

/** Sets lastUsedAt unless it was set within the resolution: concurrent requests write it once. */
export async function touchLastUsed(ctx: Db, tokenId: string, now: Date, resolutionMs: number): Promise<void> {
  const staleBefore = new Date(now.getTime() - resolutionMs);
  await ctx.db
    .update(apiTokens)
    .set({ lastUsedAt: now })
    .where(and(eq(apiTokens.id, tokenId), or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, staleBefore))));
}
