import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { webhookEndpoints } from '../../db/schema/index.js';

// Closing a seller's account (issue 35): its webhook endpoints stop receiving events, called by the accounts domain
// inside its transaction. A disabled endpoint's queued messages fail instead of being sent (webhook-delivery.ts).

/** Disables every enabled endpoint of the seller, as the seller would; answers how many. */
export async function disableAllEndpoints(db: Pick<Database, 'update'>, sellerId: string, now: Date): Promise<number> {
  const disabled = await db
    .update(webhookEndpoints)
    .set({ isEnabled: false, disabledReason: 'seller', disabledAt: now, updatedAt: now })
    .where(and(eq(webhookEndpoints.sellerId, sellerId), eq(webhookEndpoints.isEnabled, true)))
    .returning({ id: webhookEndpoints.id });
  return disabled.length;
}
