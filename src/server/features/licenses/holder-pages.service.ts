import type { AppContext } from '../../context.js';
import { type KeysetPosition, pageOf } from '../../db/keyset-page.js';
import { AppError } from '../../http/errors.js';
import { findHolderPositionMicros, type HolderRow, selectHolderPageRows } from './holders.repository.js';

// A seller's license holders one page at a time, newest first (issue 34 item 4): Management's Access Management
// and API v1's customer list read 100,000 holders this way without loading them all.

export type HolderOnPage = HolderRow & { position: KeysetPosition };

export type HolderPageQuery = {
  limit: number;
  /** The position after which the page starts; the first page without. */
  after?: KeysetPosition;
  /** Only holders with at least one license (API v1's customers). */
  licensedOnly?: boolean;
  /** Holders whose e-mail, or the name of a package or product they hold, contains this, ignoring case. */
  search?: string;
};

export const holderPageMessages = {
  holderGone: 'The license holder this page starts after no longer exists. Load the list again from the start.',
} as const;

/** One page of the seller's holders, newest first, with the cursor of the next page (null on the last). */
export async function findHolderPage(
  ctx: AppContext,
  sellerId: string,
  query: HolderPageQuery,
): Promise<{ holders: HolderOnPage[]; nextCursor: string | null }> {
  const search = query.search?.trim();
  const rows = await selectHolderPageRows(ctx.db, sellerId, {
    // One row more than the page tells whether another page follows.
    limit: query.limit + 1,
    after: query.after,
    licensedOnly: query.licensedOnly,
    search: search || undefined,
  });
  const page = pageOf(
    rows.map(({ customer, micros }) => ({ ...customer, position: { micros, id: customer.id } })),
    query.limit,
  );
  return { holders: page.rows, nextCursor: page.nextCursor };
}

/** Where the page after this holder starts (Management's `after`); a holder not the seller's is refused (400). */
export async function holderPosition(ctx: AppContext, sellerId: string, customerId: string): Promise<KeysetPosition> {
  const micros = await findHolderPositionMicros(ctx.db, sellerId, customerId);
  if (micros === undefined) throw new AppError('VALIDATION_FAILED', holderPageMessages.holderGone);
  return { micros, id: customerId };
}
