import type { Database } from '../../db/client.js';
import { clearBrandPersonalData } from './branding.repository.js';

// Erasing a closed seller account's personal data (issue 35): the brand's logo and the addresses and names its
// e-mails went out with. The accounts domain calls it in its erasure's transaction, then removes the stored logos.

/** Clears the logo and the brand's contact fields; answers the storage prefix of the seller's uploaded logos. */
export async function eraseBrandPersonalData(
  db: Pick<Database, 'update'>,
  sellerId: string,
  now: Date,
): Promise<string> {
  await clearBrandPersonalData(db, sellerId, now);
  return `logos/${sellerId}/`;
}
