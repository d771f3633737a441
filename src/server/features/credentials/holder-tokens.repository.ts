import { and, asc, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { firstRow, totalOf, writtenRow } from '../../db/result-rows.js';
import { customers, type HolderTokenKind, holderTokens } from '../../db/schema/index.js';

// The queries of license holders' Composer tokens (the `holder_tokens` table, which this domain alone writes).

/** The database or an open transaction. */
type Queryable = Pick<Database, 'select' | 'insert' | 'update' | 'execute'>;

export type HolderTokenRow = typeof holderTokens.$inferSelect;

export type NewHolderTokenValues = {
  customerId: string;
  name: string;
  kind: HolderTokenKind;
  tokenHash: string;
  tokenHint: string;
  createdBy: HolderTokenRow['createdBy'];
  expiresAt: Date | null;
  oidcTrustId: string | null;
  createdAt: Date;
};

/** The SQL test "not past its expiry at `now`" (a token without expiry never is). */
const notExpiredAt = (now: Date) =>
  sql`(${holderTokens.expiresAt} is null or ${holderTokens.expiresAt} > ${now.toISOString()})`;

/** The holder of this seller (the `customers` table is the licenses domain's), or undefined. */
export async function findSellersHolderContact(
  db: Pick<Database, 'select'>,
  sellerId: string,
  customerId: string,
): Promise<{ id: string; email: string; sellerId: string } | undefined> {
  return firstRow(
    db
      .select({ id: customers.id, email: customers.email, sellerId: customers.sellerId })
      .from(customers)
      .where(and(eq(customers.id, customerId), eq(customers.sellerId, sellerId)))
      .limit(1),
  );
}

export async function insertHolderToken(db: Queryable, values: NewHolderTokenValues): Promise<HolderTokenRow> {
  return writtenRow(db.insert(holderTokens).values(values).returning(), 'The new holder token');
}

/** Every token of the holder, oldest first. */
export function selectTokensOfHolder(db: Pick<Database, 'select'>, customerId: string): Promise<HolderTokenRow[]> {
  return db
    .select()
    .from(holderTokens)
    .where(eq(holderTokens.customerId, customerId))
    .orderBy(asc(holderTokens.createdAt), asc(holderTokens.id));
}

/** Developer tokens not revoked, not replaced by a rotation and not past their expiry at `now`. */
export async function countSeatedDeveloperTokens(
  db: Pick<Database, 'select'>,
  customerId: string,
  now: Date,
): Promise<number> {
  return totalOf(
    db
      .select({ total: count() })
      .from(holderTokens)
      .where(
        and(
          eq(holderTokens.customerId, customerId),
          eq(holderTokens.kind, 'developer'),
          isNull(holderTokens.revokedAt),
          isNull(holderTokens.replacedById),
          notExpiredAt(now),
        ),
      ),
  );
}

/** Holds the holder's seat lock until the transaction `tx` ends: a second caller waits for it. */
export async function lockHolderSeats(tx: Queryable, customerId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`holder-seats:${customerId}`}))`);
}

/** The holder's token, locked for update until the transaction ends; undefined for another holder's. */
export async function findHolderTokenForUpdate(
  tx: Queryable,
  customerId: string,
  tokenId: string,
): Promise<HolderTokenRow | undefined> {
  return firstRow(
    tx
      .select()
      .from(holderTokens)
      .where(and(eq(holderTokens.id, tokenId), eq(holderTokens.customerId, customerId)))
      .for('update'),
  );
}

/** Writes the token's changes; answers its row after them. */
export async function updateHolderToken(
  db: Queryable,
  tokenId: string,
  changes: Partial<
    Pick<HolderTokenRow, 'replacedById' | 'rotatedAt' | 'expiresAt' | 'revokedAt' | 'leakedAt' | 'leakUrl'>
  >,
): Promise<HolderTokenRow | undefined> {
  return firstRow(db.update(holderTokens).set(changes).where(eq(holderTokens.id, tokenId)).returning());
}

/** Revokes the holder's working tokens of this name. */
export async function revokeHolderTokensNamed(
  db: Queryable,
  customerId: string,
  name: string,
  now: Date,
): Promise<void> {
  await db
    .update(holderTokens)
    .set({ revokedAt: now })
    .where(and(eq(holderTokens.customerId, customerId), eq(holderTokens.name, name), isNull(holderTokens.revokedAt)));
}

/** Revokes every working token of every holder of the seller (the `customers` table is the licenses domain's). */
export async function revokeTokensOfSellersHolders(db: Queryable, sellerId: string, now: Date): Promise<number> {
  const revoked = await db
    .update(holderTokens)
    .set({ revokedAt: now })
    .where(
      and(
        isNull(holderTokens.revokedAt),
        inArray(
          holderTokens.customerId,
          sql`(select ${customers.id} from ${customers} where ${customers.sellerId} = ${sellerId})`,
        ),
      ),
    )
    .returning({ id: holderTokens.id });
  return revoked.length;
}

/** Revokes the working tokens minted for the CI identity `trustId`; answers how many. */
export async function revokeTokensMintedByTrust(db: Queryable, trustId: string, now: Date): Promise<number> {
  const revoked = await db
    .update(holderTokens)
    .set({ revokedAt: now })
    .where(and(eq(holderTokens.oidcTrustId, trustId), isNull(holderTokens.revokedAt)))
    .returning({ id: holderTokens.id });
  return revoked.length;
}

/** Sets the token's last use to `now` unless it was already set after `notBefore`. */
export async function markHolderTokenUsed(db: Queryable, tokenId: string, now: Date, notBefore: Date): Promise<void> {
  await db
    .update(holderTokens)
    .set({ lastUsedAt: now })
    .where(
      and(
        eq(holderTokens.id, tokenId),
        sql`(${holderTokens.lastUsedAt} is null or ${holderTokens.lastUsedAt} < ${notBefore.toISOString()})`,
      ),
    );
}

/** The token with this hash that is not revoked and not past its expiry at `now`. */
export async function findLiveHolderTokenByHash(
  db: Pick<Database, 'select'>,
  tokenHash: string,
  now: Date,
): Promise<HolderTokenRow | undefined> {
  return firstRow(
    db
      .select()
      .from(holderTokens)
      .where(and(eq(holderTokens.tokenHash, tokenHash), isNull(holderTokens.revokedAt), notExpiredAt(now)))
      .limit(1),
  );
}

/** The token with this hash, whatever its state, with its holder's e-mail and seller (`customers`: licenses domain). */
export async function findHolderTokenWithHolderByHash(
  db: Pick<Database, 'select'>,
  tokenHash: string,
): Promise<{ token: HolderTokenRow; email: string; sellerId: string } | undefined> {
  return firstRow(
    db
      .select({ token: holderTokens, email: customers.email, sellerId: customers.sellerId })
      .from(holderTokens)
      .innerJoin(customers, eq(customers.id, holderTokens.customerId))
      .where(eq(holderTokens.tokenHash, tokenHash))
      .limit(1),
  );
}
