import { and, desc, eq, isNull, lt, or } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { firstRow, hasAnyRow, writtenRow } from '../../db/result-rows.js';
import { apiTokens, type OrganizationRole, organizationMembers, users } from '../../db/schema/index.js';

// Queries of the api_tokens table. Every read a seller makes is scoped to their user id.

export type ApiTokenRow = typeof apiTokens.$inferSelect;
type Db = Pick<AppContext, 'db'>;

export async function insertApiToken(ctx: Db, values: typeof apiTokens.$inferInsert): Promise<ApiTokenRow> {
  return writtenRow(ctx.db.insert(apiTokens).values(values).returning(), 'The new API token');
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
  return firstRow(
    ctx.db
      .select()
      .from(apiTokens)
      .where(and(eq(apiTokens.id, tokenId), eq(apiTokens.userId, userId), isNull(apiTokens.deletedAt)))
      .limit(1),
  );
}

export type TokenWithCreator = {
  token: ApiTokenRow;
  /** The organisation (seller account) the token acts on: API v1 writes need not read it again (issue 29 item 3). */
  seller: typeof users.$inferSelect;
  /** The member who created the token (a token without a recorded creator: the account's founding person). */
  creator: { id: string; displayName: string | null; email: string | null; slug: string } | null;
  /** The creator's role in the token's organisation now; null for a founder without a membership row. */
  creatorRole: OrganizationRole | null;
};

const creator = alias(users, 'creator');
const seller = alias(users, 'seller');

/**
 * By the SHA-256 of the token, deleted ones included (their holder is told the token was deleted), with its creator
 * and the creator's current role in the organisation, in one query: API v1 caps a token by that role (issue 33).
 */
export async function findTokenByHash(ctx: Db, tokenHash: string): Promise<TokenWithCreator | undefined> {
  // No coalesce to the account: a token whose creator's row is gone (created_by_id set null) has no one to act
  // for, so it gets no permissions rather than the founder's (migration 0027 filled the creator of older tokens).
  const creatorId = apiTokens.createdById;
  return firstRow(
    ctx.db
      .select({
        token: apiTokens,
        seller,
        creator: { id: creator.id, displayName: creator.displayName, email: creator.email, slug: creator.slug },
        creatorRole: organizationMembers.role,
      })
      .from(apiTokens)
      .innerJoin(seller, eq(seller.id, apiTokens.userId))
      .leftJoin(creator, eq(creator.id, creatorId))
      .leftJoin(
        organizationMembers,
        and(eq(organizationMembers.organizationId, apiTokens.userId), eq(organizationMembers.userId, creatorId)),
      )
      .where(eq(apiTokens.tokenHash, tokenHash))
      .limit(1),
  );
}

/**
 * Soft-deletes the live tokens `creatorId` made in the organisation (a member removed from it, issue 33): their next
 * request hears the token was deleted. Answers how many.
 */
export async function markTokensOfCreatorDeleted(
  ctx: Db,
  organizationId: string,
  creatorId: string,
  now: Date,
): Promise<number> {
  const deleted = await ctx.db
    .update(apiTokens)
    .set({ deletedAt: now, isActive: false })
    .where(and(eq(apiTokens.userId, organizationId), eq(apiTokens.createdById, creatorId), isNull(apiTokens.deletedAt)))
    .returning({ id: apiTokens.id });
  return deleted.length;
}

/** Soft delete: the row stays so that the token's next request hears it was deleted. False if already gone. */
export async function markTokenDeleted(ctx: Db, userId: string, tokenId: string, now: Date): Promise<boolean> {
  return hasAnyRow(
    ctx.db
      .update(apiTokens)
      .set({ deletedAt: now, isActive: false })
      .where(and(eq(apiTokens.id, tokenId), eq(apiTokens.userId, userId), isNull(apiTokens.deletedAt)))
      .returning({ id: apiTokens.id }),
  );
}

/** Sets lastUsedAt unless it was set within the resolution: concurrent requests write it once. */
export async function touchLastUsed(ctx: Db, tokenId: string, now: Date, resolutionMs: number): Promise<void> {
  const staleBefore = new Date(now.getTime() - resolutionMs);
  await ctx.db
    .update(apiTokens)
    .set({ lastUsedAt: now })
    .where(and(eq(apiTokens.id, tokenId), or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, staleBefore))));
}

/** Marks every live API token of the organisation deleted (`db` may be a transaction); answers how many. */
export async function markAllTokensOfOrganizationDeleted(
  db: Pick<Database, 'update'>,
  organizationId: string,
  now: Date,
): Promise<number> {
  const deleted = await db
    .update(apiTokens)
    .set({ deletedAt: now, isActive: false })
    .where(and(eq(apiTokens.userId, organizationId), isNull(apiTokens.deletedAt)))
    .returning({ id: apiTokens.id });
  return deleted.length;
}
