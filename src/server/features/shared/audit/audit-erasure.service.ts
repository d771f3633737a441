import type { Database } from '../../../db/client.js';
import { clearPersonalDataOfSeller } from './audit.repository.js';

// Erasing a closed seller account's personal data (issue 35): audit events keep what happened and when, and lose the
// details (holders' addresses, package notes) and the names of who acted.

/** Empties the details and actor names of the seller's audit events. */
export function eraseAuditPersonalData(db: Pick<Database, 'update'>, sellerId: string): Promise<void> {
  return clearPersonalDataOfSeller(db, sellerId);
}
