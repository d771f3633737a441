import type { Database } from '../../db/client.js';
import * as repository from './users.repository.js';

// A seller account's closing and erasure (issue 35), as the users table records them; the accounts domain decides
// and calls these inside its transaction.

/** Marks the account closed; false when it already was (nothing changed). */
export function markAccountClosed(
  db: Pick<Database, 'update'>,
  id: string,
  closedAt: Date,
  eraseAfter: Date,
): Promise<boolean> {
  return repository.markAccountClosed(db, id, closedAt, eraseAfter);
}

/**
 * Forgets who the account's person was: e-mail, names, avatar and code-host identity. The slug stays (it names the
 * kept sales' seller and keeps the host name from being handed to someone else); signing in is no longer possible.
 */
export function eraseAccountIdentity(db: Pick<Database, 'update'>, id: string, now: Date): Promise<void> {
  return repository.eraseAccountIdentity(db, id, now);
}
