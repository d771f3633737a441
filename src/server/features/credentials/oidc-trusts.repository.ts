import { and, asc, count, eq, lt } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { firstRow, hasAnyRow, totalOf, writtenRow } from '../../db/result-rows.js';
import { customers, oidcTokenUses, oidcTrusts } from '../../db/schema/index.js';

// The queries of holders' trusted CI identities and of the job tokens exchanged for them (the `oidc_trusts` and
// `oidc_token_uses` tables, which this domain alone writes).

/** The database or an open transaction. */
type Queryable = Pick<Database, 'select' | 'insert' | 'update' | 'delete'>;

export type OidcTrustRow = typeof oidcTrusts.$inferSelect;
export type NewOidcTrustRow = Omit<typeof oidcTrusts.$inferInsert, 'id' | 'lastUsedAt'>;
export type NewOidcTokenUseRow = typeof oidcTokenUses.$inferInsert;

/** The holder's trusts, oldest first. */
export function selectTrustsOfHolder(db: Queryable, customerId: string): Promise<OidcTrustRow[]> {
  return db
    .select()
    .from(oidcTrusts)
    .where(eq(oidcTrusts.customerId, customerId))
    .orderBy(asc(oidcTrusts.createdAt), asc(oidcTrusts.id));
}

export async function countTrustsOfHolder(db: Queryable, customerId: string): Promise<number> {
  return totalOf(db.select({ total: count() }).from(oidcTrusts).where(eq(oidcTrusts.customerId, customerId)));
}

export async function insertOidcTrust(db: Queryable, values: NewOidcTrustRow): Promise<OidcTrustRow> {
  return writtenRow(db.insert(oidcTrusts).values(values).returning(), 'The new trusted CI identity');
}

/** Deletes the holder's trust; answers it, or undefined when the holder has no trust of that id. */
export async function deleteTrustOfHolder(
  db: Queryable,
  customerId: string,
  trustId: string,
): Promise<OidcTrustRow | undefined> {
  return firstRow(
    db
      .delete(oidcTrusts)
      .where(and(eq(oidcTrusts.id, trustId), eq(oidcTrusts.customerId, customerId)))
      .returning(),
  );
}

/** The trusts naming this issuer of every holder of the seller (the `customers` table is the licenses domain's). */
export async function selectSellersTrustsOfIssuer(
  db: Queryable,
  sellerId: string,
  issuer: string,
): Promise<OidcTrustRow[]> {
  const rows = await db
    .select({ trust: oidcTrusts })
    .from(oidcTrusts)
    .innerJoin(customers, eq(customers.id, oidcTrusts.customerId))
    .where(and(eq(customers.sellerId, sellerId), eq(oidcTrusts.issuer, issuer)));
  return rows.map((row) => row.trust);
}

export async function markTrustUsed(db: Queryable, trustId: string, now: Date): Promise<void> {
  await db.update(oidcTrusts).set({ lastUsedAt: now }).where(eq(oidcTrusts.id, trustId));
}

/** Deletes the recorded uses whose job token expired before `now`. */
export async function deleteExpiredTokenUses(db: Queryable, now: Date): Promise<void> {
  await db.delete(oidcTokenUses).where(lt(oidcTokenUses.expiresAt, now));
}

/** Records a job token's use once: answers false when its hash was already recorded. */
export async function insertTokenUseOnce(db: Queryable, values: NewOidcTokenUseRow): Promise<boolean> {
  return hasAnyRow(db.insert(oidcTokenUses).values(values).onConflictDoNothing().returning());
}
