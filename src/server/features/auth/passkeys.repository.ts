import { and, asc, eq, gt, isNull, lt } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { firstRow, hasAnyRow } from '../../db/result-rows.js';
import { userPasskeys, users, webauthnChallenges } from '../../db/schema/index.js';

// The queries of passkeys and their one-time WebAuthn challenges (user_passkeys, webauthn_challenges, which this
// domain alone writes). A sign-in reads the passkey's person with it (users domain) to answer who signed in.

type Queryable = Pick<Database, 'select' | 'insert' | 'update' | 'delete'>;

export type PasskeyRow = typeof userPasskeys.$inferSelect;
export type ChallengePurpose = (typeof webauthnChallenges.$inferInsert)['purpose'];

/** Stores a challenge, forgetting the expired ones on the way. */
export async function storeChallengeRow(
  db: Queryable,
  values: { purpose: ChallengePurpose; challenge: string; userId: string | null; createdAt: Date; expiresAt: Date },
): Promise<void> {
  await db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, values.createdAt));
  await db.insert(webauthnChallenges).values(values);
}

/** Deletes the challenge if it is of that purpose and person and not expired: answers it then (a challenge works once). */
export async function takeChallengeRow(
  db: Queryable,
  challenge: string,
  purpose: ChallengePurpose,
  userId: string | null,
  now: Date,
): Promise<string | undefined> {
  const [taken] = await db
    .delete(webauthnChallenges)
    .where(
      and(
        eq(webauthnChallenges.challenge, challenge),
        eq(webauthnChallenges.purpose, purpose),
        userId === null ? isNull(webauthnChallenges.userId) : eq(webauthnChallenges.userId, userId),
        gt(webauthnChallenges.expiresAt, now),
      ),
    )
    .returning({ challenge: webauthnChallenges.challenge });
  return taken?.challenge;
}

/** The person's passkeys' credential ids and transports. */
export function selectCredentialsOf(
  db: Queryable,
  userId: string,
): Promise<{ credentialId: string; transports: PasskeyRow['transports'] }[]> {
  return db
    .select({ credentialId: userPasskeys.credentialId, transports: userPasskeys.transports })
    .from(userPasskeys)
    .where(eq(userPasskeys.userId, userId));
}

/** Stores a passkey unless its credential is registered already (then undefined). */
export async function insertPasskeyIfNew(
  db: Queryable,
  values: typeof userPasskeys.$inferInsert,
): Promise<PasskeyRow | undefined> {
  return firstRow(db.insert(userPasskeys).values(values).onConflictDoNothing().returning());
}

/** The passkey of that credential id, with its person. */
export async function findPasskeyWithPerson(
  db: Queryable,
  credentialId: string,
): Promise<{ passkey: PasskeyRow; user: typeof users.$inferSelect } | undefined> {
  return firstRow(
    db
      .select({ passkey: userPasskeys, user: users })
      .from(userPasskeys)
      .innerJoin(users, eq(users.id, userPasskeys.userId))
      .where(eq(userPasskeys.credentialId, credentialId))
      .orderBy(asc(userPasskeys.createdAt))
      .limit(1),
  );
}

export async function recordPasskeyUse(db: Queryable, passkeyId: string, counter: number, now: Date): Promise<void> {
  await db.update(userPasskeys).set({ counter, lastUsedAt: now }).where(eq(userPasskeys.id, passkeyId));
}

/** The person's passkeys, oldest first. */
export function selectPasskeysOf(db: Queryable, userId: string): Promise<PasskeyRow[]> {
  return db.select().from(userPasskeys).where(eq(userPasskeys.userId, userId)).orderBy(asc(userPasskeys.createdAt));
}

/** Renames the person's passkey; undefined when they have none of that id. */
export async function renamePasskeyOf(
  db: Queryable,
  userId: string,
  passkeyId: string,
  name: string,
): Promise<PasskeyRow | undefined> {
  return firstRow(
    db
      .update(userPasskeys)
      .set({ name })
      .where(and(eq(userPasskeys.id, passkeyId), eq(userPasskeys.userId, userId)))
      .returning(),
  );
}

/** Deletes the person's passkey: false when they have none of that id. */
export async function deletePasskeyOf(db: Queryable, userId: string, passkeyId: string): Promise<boolean> {
  return hasAnyRow(
    db
      .delete(userPasskeys)
      .where(and(eq(userPasskeys.id, passkeyId), eq(userPasskeys.userId, userId)))
      .returning({ id: userPasskeys.id }),
  );
}
