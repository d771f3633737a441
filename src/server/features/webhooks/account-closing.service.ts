import type { Database } from '../../db/client.js';
import { disableEndpointsOfSeller } from './webhooks.repository.js';

// Closing a seller's account (issue 35): its webhook endpoints stop receiving events, called by the accounts domain
// inside its transaction. A disabled endpoint's queued messages fail instead of being sent (webhook-delivery.ts).

/** Disables every enabled endpoint of the seller, as the seller would; answers how many. */
export function disableAllEndpoints(db: Pick<Database, 'update'>, sellerId: string, now: Date): Promise<number> {
  return disableEndpointsOfSeller(db, sellerId, now);
}
