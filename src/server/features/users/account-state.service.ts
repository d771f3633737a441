import { and, eq, isNull } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { users } from '../../db/schema/index.js';

// A seller account's closing and erasure (issue 35), as the users table records them; the accounts domain decides
// and calls these inside its transaction.

/** Marks the account closed; false when it already was (nothing changed). */
export async function markAccountClosed(
  db: Pick<Database, 'update'>,
  id: string,
  closedAt: Date,
  eraseAfter: Date,
): Promise<boolean> {
  const closed = await db
    .update(users)
    .set({ closedAt, eraseAfter, updatedAt: closedAt })
    .where(and(eq(users.id, id), isNull(users.closedAt)))
    .returning({ id: users.id });
  return closed.length > 0;
}

/**
 * Forgets who the account's person was: e-mail, names, avatar and code-host identity. The slug stays (it names the
 * kept sales' seller and keeps the host name from being handed to someone else); signing in is no longer possible.
 */
export async function eraseAccountIdentity(db: Pick<Database, 'update'>, id: string, now: Date): Promise<void> {
  await db
    .update(users)
    .set({
      email: null,
      displayName: null,
      githubId: null,
      githubUsername: null,
      avatarUrl: null,
      githubAccessTokenEncrypted: null,
      githubScopes: null,
      updatedAt: now,
    })
    .where(eq(users.id, id));
}
