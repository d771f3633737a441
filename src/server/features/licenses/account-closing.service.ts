import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { customers, downloads, grants } from '../../db/schema/index.js';
import { revokeSellersHolderTokens, type TokenWriter } from '../credentials/holder-tokens.service.js';

// What closing a seller's account (issue 35) does to its license holders, called by the accounts domain inside its
// transaction: every license revoked and every holder's Composer token revoked, so the
// next Composer request is refused (the access feed's triggers tell every process). After the retention the holders'
// personal data goes: e-mail addresses become placeholders and downloads forget the network they came from.

type Db = Pick<Database, 'update' | 'select'> & TokenWriter;

const sellerCustomerIds = (sellerId: string) =>
  sql`(select ${customers.id} from ${customers} where ${customers.sellerId} = ${sellerId})`;

/** Revokes the seller's active licenses and voids every holder token; answers how many of each. */
export async function revokeAllHolderAccess(
  db: Db,
  sellerId: string,
  now: Date,
): Promise<{ licenses: number; holders: number }> {
  const revoked = await db
    .update(grants)
    .set({ status: 'revoked', revokedAt: now })
    .where(and(eq(grants.status, 'active'), inArray(grants.customerId, sellerCustomerIds(sellerId))))
    .returning({ id: grants.id });
  const holders = await db.select({ id: customers.id }).from(customers).where(eq(customers.sellerId, sellerId));
  await revokeSellersHolderTokens(db, sellerId, now);
  return { licenses: revoked.length, holders: holders.length };
}

/** The placeholder that replaces an erased holder's address: unique per holder, never deliverable (.invalid). */
export function erasedHolderEmail(customerId: string): string {
  return `erased-${customerId}@erased.invalid`;
}

/** Replaces the holders' e-mail addresses and forgets the networks their downloads came from. */
export async function eraseHolderPersonalData(db: Db, sellerId: string): Promise<number> {
  const erased = await db
    .update(customers)
    .set({ email: sql`'erased-' || ${customers.id}::text || '@erased.invalid'` })
    .where(eq(customers.sellerId, sellerId))
    .returning({ id: customers.id });
  await db
    .update(downloads)
    .set({ clientNetwork: null })
    .where(
      and(
        isNotNull(downloads.clientNetwork),
        inArray(
          downloads.grantId,
          sql`(select ${grants.id} from ${grants} where ${grants.customerId} in ${sellerCustomerIds(sellerId)})`,
        ),
      ),
    );
  return erased.length;
}
