import type { Database } from '../../db/client.js';
import { deactivateSellerPrices } from './pricing.repository.js';
import { eraseBuyerEmails } from './sales.repository.js';

// Closing a seller's account (issue 35), called by the accounts domain inside its transaction: every price stops
// being offered (getSaleOffer also refuses a closed seller's checkout), and after the retention the buyers' e-mail
// addresses give way to a placeholder. The sales themselves stay: amounts, dates, currency and invoice ids are what
// tax law requires the seller (and the platform) to keep.

/** What a buyer reads at checkout once the seller has closed the account. */
export const SELLER_CLOSED_MESSAGE =
  'This seller has closed their account and no longer sells packages. Contact the seller for anything you bought.';

/** The placeholder of an erased buyer's address on a kept sale. */
export const ERASED_BUYER_EMAIL = 'erased@erased.invalid';

/** Sets every price of the seller inactive; answers how many were active. */
export function deactivateAllPrices(db: Pick<Database, 'update'>, sellerId: string, now: Date): Promise<number> {
  return deactivateSellerPrices(db, sellerId, now);
}

/** Replaces the buyers' addresses on the seller's sales and drops any sealed token still waiting for its buyer. */
export function eraseBuyerPersonalData(db: Pick<Database, 'update'>, sellerId: string): Promise<number> {
  return eraseBuyerEmails(db, sellerId, ERASED_BUYER_EMAIL);
}
