import { and, asc, desc, eq, exists, gt, ilike, inArray, isNotNull, or, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { type KeysetPosition, olderThan, positionMicros } from '../../db/keyset-page.js';
import { firstRow } from '../../db/result-rows.js';
import { customers, downloads, grants, packages, products } from '../../db/schema/index.js';

// The queries of license holders (customers) as the seller lists them, as they take their own data away, and as
// closing the seller's account revokes and erases them. Package and product names are read for display only
// (packages: the packages domain; products: the products domain).

/** The database or an open transaction. */
type Queryable = Pick<Database, 'select' | 'update'>;

export type HolderRow = typeof customers.$inferSelect;
type GrantRow = typeof grants.$inferSelect;
type DownloadRow = typeof downloads.$inferSelect;

export type HolderPageRowsQuery = {
  limit: number;
  after?: KeysetPosition;
  licensedOnly?: boolean;
  /** Already trimmed; empty or absent: no search. */
  search?: string;
};

/**
 * The seller's holders newest first, `limit` rows after `after`, each with its creation time in microseconds (the
 * page's position).
 */
export function selectHolderPageRows(
  db: Queryable,
  sellerId: string,
  query: HolderPageRowsQuery,
): Promise<{ customer: HolderRow; micros: string }[]> {
  return db
    .select({ customer: customers, micros: positionMicros(customers.createdAt) })
    .from(customers)
    .where(
      and(
        eq(customers.sellerId, sellerId),
        query.after ? olderThan(customers.createdAt, customers.id, query.after) : undefined,
        query.licensedOnly ? exists(grantsOfHolder(db)) : undefined,
        query.search ? holderMatches(db, query.search) : undefined,
      ),
    )
    .orderBy(desc(customers.createdAt), desc(customers.id))
    .limit(query.limit);
}

/** The seller's holder's creation time in microseconds; undefined when the holder is not the seller's. */
export async function findHolderPositionMicros(
  db: Queryable,
  sellerId: string,
  customerId: string,
): Promise<string | undefined> {
  const [row] = await db
    .select({ micros: positionMicros(customers.createdAt) })
    .from(customers)
    .where(and(eq(customers.id, customerId), eq(customers.sellerId, sellerId)));
  return row?.micros;
}

const grantsOfHolder = (db: Queryable) =>
  db.select({ one: sql`1` }).from(grants).where(eq(grants.customerId, customers.id));

/** The search as a LIKE pattern: its own % and _ are plain characters. */
const containing = (search: string) => `%${search.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;

function holderMatches(db: Queryable, search: string): SQL | undefined {
  const pattern = containing(search);
  const heldNames = db
    .select({ one: sql`1` })
    .from(grants)
    .leftJoin(packages, eq(packages.id, grants.packageId))
    .leftJoin(products, eq(products.id, grants.productId))
    .where(and(eq(grants.customerId, customers.id), or(ilike(packages.name, pattern), ilike(products.name, pattern))));
  return or(ilike(customers.email, pattern), exists(heldNames));
}

/**
 * The holders with these ids, newest first, each with every grant they hold (oldest first; a holder without any
 * comes once with `grant` null) and the name of its package or, for a product's license, its product.
 */
export function selectHoldersWithGrants(
  db: Queryable,
  customerIds: string[],
): Promise<{ customer: HolderRow; grant: GrantRow | null; packageName: string | null }[]> {
  return (
    db
      .select({
        customer: customers,
        grant: grants,
        packageName: sql<string | null>`coalesce(${packages.name}, ${products.name})`,
      })
      .from(customers)
      .leftJoin(grants, eq(grants.customerId, customers.id))
      .leftJoin(packages, eq(packages.id, grants.packageId))
      // A product's license is named by the product (issue 31).
      .leftJoin(products, eq(products.id, grants.productId))
      .where(inArray(customers.id, customerIds))
      .orderBy(desc(customers.createdAt), desc(customers.id), asc(grants.createdAt), asc(grants.id))
  );
}

/** The seller's holder with this id. */
export async function findSellersHolder(
  db: Queryable,
  sellerId: string,
  customerId: string,
): Promise<HolderRow | undefined> {
  return firstRow(
    db
      .select()
      .from(customers)
      .where(and(eq(customers.id, customerId), eq(customers.sellerId, sellerId))),
  );
}

/** The holder's package grants (not a product's), by package name, with the package's name and whether it is active. */
export function selectHolderPackageGrants(
  db: Queryable,
  customerId: string,
): Promise<{ grant: GrantRow; packageName: string; isPackageActive: boolean }[]> {
  return db
    .select({ grant: grants, packageName: packages.name, isPackageActive: packages.isActive })
    .from(grants)
    .innerJoin(packages, eq(packages.id, grants.packageId))
    .where(eq(grants.customerId, customerId))
    .orderBy(asc(packages.name));
}

export async function markHolderTokenIssued(db: Queryable, customerId: string, now: Date): Promise<void> {
  await db.update(customers).set({ tokenIssuedAt: now }).where(eq(customers.id, customerId));
}

/** Up to `limit` downloads of these grants with an id above `afterId`, in id order. */
export function selectDownloadsOfGrantsAfter(
  db: Queryable,
  grantIds: string[],
  afterId: number,
  limit: number,
): Promise<DownloadRow[]> {
  return db
    .select()
    .from(downloads)
    .where(and(inArray(downloads.grantId, grantIds), gt(downloads.id, afterId)))
    .orderBy(asc(downloads.id))
    .limit(limit);
}

const sellerCustomerIds = (sellerId: string) =>
  sql`(select ${customers.id} from ${customers} where ${customers.sellerId} = ${sellerId})`;

/** Revokes the seller's holders' active grants; answers how many. */
export async function revokeActiveGrantsOfSeller(db: Queryable, sellerId: string, now: Date): Promise<number> {
  const revoked = await db
    .update(grants)
    .set({ status: 'revoked', revokedAt: now })
    .where(and(eq(grants.status, 'active'), inArray(grants.customerId, sellerCustomerIds(sellerId))))
    .returning({ id: grants.id });
  return revoked.length;
}

export async function countSellersHolders(db: Queryable, sellerId: string): Promise<number> {
  const holders = await db.select({ id: customers.id }).from(customers).where(eq(customers.sellerId, sellerId));
  return holders.length;
}

/** Replaces each holder's e-mail with its placeholder (account-closing's erasedHolderEmail); answers how many. */
export async function replaceSellersHolderEmails(db: Queryable, sellerId: string): Promise<number> {
  const erased = await db
    .update(customers)
    .set({ email: sql`'erased-' || ${customers.id}::text || '@erased.invalid'` })
    .where(eq(customers.sellerId, sellerId))
    .returning({ id: customers.id });
  return erased.length;
}

/** Forgets the network of every download of the seller's holders' grants. */
export async function forgetSellersDownloadNetworks(db: Queryable, sellerId: string): Promise<void> {
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
}
