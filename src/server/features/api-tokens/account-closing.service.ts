import type { Database } from '../../db/client.js';
import { markAllTokensOfOrganizationDeleted } from './api-tokens.repository.js';

// Closing a seller's account (issue 35): its API tokens stop working at their next request, called by the accounts
// domain inside its transaction. The rows stay (deleted), so a request still carrying one is told it was deleted.

/** Deletes every live API token of the organisation; answers how many. */
export function deleteAllTokensOfOrganization(
  db: Pick<Database, 'update'>,
  organizationId: string,
  now: Date,
): Promise<number> {
  return markAllTokensOfOrganizationDeleted(db, organizationId, now);
}
