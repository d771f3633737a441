import { and, count, eq, isNotNull, isNull, lt, or } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { firstRow, hasAnyRow, totalOf } from '../../db/result-rows.js';
import { userPasskeys, userRecoveryCodes, userTotpSecrets } from '../../db/schema/index.js';

// The queries of a person's second factors (user_totp_secrets, user_recovery_codes, and the count of user_passkeys),
// which this domain alone writes.

type Queryable = Pick<Database, 'select' | 'insert' | 'update' | 'delete'>;

export type TotpRow = typeof userTotpSecrets.$inferSelect;

export async function countPasskeys(db: Queryable, userId: string): Promise<number> {
  return totalOf(db.select({ total: count() }).from(userPasskeys).where(eq(userPasskeys.userId, userId)));
}

/** The person's authenticator app: the confirmed one, or the one being set up (`confirmed` false). */
export async function findTotp(db: Queryable, userId: string, confirmed: boolean): Promise<TotpRow | undefined> {
  return firstRow(
    db
      .select()
      .from(userTotpSecrets)
      .where(
        and(
          eq(userTotpSecrets.userId, userId),
          confirmed ? isNotNull(userTotpSecrets.confirmedAt) : isNull(userTotpSecrets.confirmedAt),
        ),
      )
      .limit(1),
  );
}

/** When the person's authenticator app was confirmed: null while set up, undefined without one. */
export async function findTotpConfirmedAt(db: Queryable, userId: string): Promise<Date | null | undefined> {
  const [row] = await db
    .select({ confirmedAt: userTotpSecrets.confirmedAt })
    .from(userTotpSecrets)
    .where(eq(userTotpSecrets.userId, userId))
    .limit(1);
  return row?.confirmedAt;
}

/** Stores a new secret being set up, replacing any earlier one of the person. */
export async function upsertPendingTotp(db: Queryable, userId: string, secretSealed: string, now: Date): Promise<void> {
  await db
    .insert(userTotpSecrets)
    .values({ userId, secretSealed, createdAt: now })
    .onConflictDoUpdate({
      target: userTotpSecrets.userId,
      set: { secretSealed, createdAt: now, lastUsedStep: null, confirmedAt: null },
    });
}

/** Confirms the secret being set up at the step of its first code: false when none was waiting. */
export async function confirmPendingTotp(db: Queryable, userId: string, step: number, now: Date): Promise<boolean> {
  return hasAnyRow(
    db
      .update(userTotpSecrets)
      .set({ confirmedAt: now, lastUsedStep: step })
      .where(and(eq(userTotpSecrets.userId, userId), isNull(userTotpSecrets.confirmedAt)))
      .returning({ userId: userTotpSecrets.userId }),
  );
}

/** Records the step of an accepted code if it is later than the last one: false when it is not (a code works once). */
export async function advanceTotpStep(db: Queryable, userId: string, step: number): Promise<boolean> {
  return hasAnyRow(
    db
      .update(userTotpSecrets)
      .set({ lastUsedStep: step })
      .where(
        and(
          eq(userTotpSecrets.userId, userId),
          or(isNull(userTotpSecrets.lastUsedStep), lt(userTotpSecrets.lastUsedStep, step)),
        ),
      )
      .returning({ userId: userTotpSecrets.userId }),
  );
}

/** Removes the person's authenticator app: false when there was none. */
export async function deleteTotp(db: Queryable, userId: string): Promise<boolean> {
  return hasAnyRow(
    db.delete(userTotpSecrets).where(eq(userTotpSecrets.userId, userId)).returning({ userId: userTotpSecrets.userId }),
  );
}

/** Replaces the person's recovery codes by these hashes. */
export async function replaceRecoveryCodeHashes(
  db: Queryable,
  userId: string,
  codeHashes: string[],
  now: Date,
): Promise<void> {
  await db.delete(userRecoveryCodes).where(eq(userRecoveryCodes.userId, userId));
  await db.insert(userRecoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash, createdAt: now })));
}

export async function countUnusedRecoveryCodes(db: Queryable, userId: string): Promise<number> {
  return totalOf(
    db
      .select({ total: count() })
      .from(userRecoveryCodes)
      .where(and(eq(userRecoveryCodes.userId, userId), isNull(userRecoveryCodes.usedAt))),
  );
}

/** Marks the person's unused code of that hash used, in one statement: false when there is none. */
export async function markRecoveryCodeUsed(
  db: Queryable,
  userId: string,
  codeHash: string,
  now: Date,
): Promise<boolean> {
  return hasAnyRow(
    db
      .update(userRecoveryCodes)
      .set({ usedAt: now })
      .where(
        and(
          eq(userRecoveryCodes.userId, userId),
          eq(userRecoveryCodes.codeHash, codeHash),
          isNull(userRecoveryCodes.usedAt),
        ),
      )
      .returning({ id: userRecoveryCodes.id }),
  );
}
