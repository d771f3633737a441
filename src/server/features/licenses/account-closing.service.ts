import type { Database } from '../../db/client.js';
import { revokeSellersHolderTokens, type TokenWriter } from '../credentials/holder-tokens.service.js';
import {
  countSellersHolders,
  forgetSellersDownloadNetworks,
  replaceSellersHolderEmails,
  revokeActiveGrantsOfSeller,
} from './holders.repository.js';

// What closing a seller's account (issue 35) does to its license holders, called by the accounts domain inside its
// transaction: every license revoked and every holder's Composer token revoked, so the
// next Composer request is refused (the access feed's triggers tell every process). After the retention the holders'
// personal data goes: e-mail addresses become placeholders and downloads forget the network they came from.

type Db = Pick<Database, 'update' | 'select'> & TokenWriter;

/** Revokes the seller's active licenses and voids every holder token; answers how many of each. */
export async function revokeAllHolderAccess(
  db: Db,
  sellerId: string,
  now: Date,
): Promise<{ licenses: number; holders: number }> {
  const licenses = await revokeActiveGrantsOfSeller(db, sellerId, now);
  const holders = await countSellersHolders(db, sellerId);
  await revokeSellersHolderTokens(db, sellerId, now);
  return { licenses, holders };
}

/** The placeholder that replaces an erased holder's address: unique per holder, never deliverable (.invalid). */
export function erasedHolderEmail(customerId: string): string {
  return `erased-${customerId}@erased.invalid`;
}

/** Replaces the holders' e-mail addresses and forgets the networks their downloads came from. */
export async function eraseHolderPersonalData(db: Db, sellerId: string): Promise<number> {
  const erased = await replaceSellersHolderEmails(db, sellerId);
  await forgetSellersDownloadNetworks(db, sellerId);
  return erased;
}
