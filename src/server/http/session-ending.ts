import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { sessions } from '../db/schema/index.js';

// Ending every session that works in an organisation at once (issue 35: closing the account). The sessions table is
// written only by http/; the accounts domain decides when and calls this inside its transaction.

/** Deletes every session working in `organizationId`, any member's; answers their id hashes for the sockets. */
export async function deleteSessionsOfOrganization(
  db: Pick<Database, 'delete'>,
  organizationId: string,
): Promise<string[]> {
  const deleted = await db
    .delete(sessions)
    .where(sql`coalesce(${sessions.organizationId}, ${sessions.userId}) = ${organizationId}`)
    .returning({ idHash: sessions.idHash });
  return deleted.map((row) => row.idHash);
}
