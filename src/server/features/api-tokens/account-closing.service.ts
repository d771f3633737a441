import { and, eq, isNull } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { apiTokens } from '../../db/schema/index.js';

// Closing a seller's account (issue 35): its API tokens stop working at their next request, called by the accounts
// domain inside its transaction. The rows stay (deleted), so a request still carrying one is told it was deleted.

/** Deletes every live API token of the organisation; answers how many. */
export async function deleteAllTokensOfOrganization(
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
